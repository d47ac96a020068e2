/** linkIssuedBy: which llm step issued each tool call, from call ids or, without them, the tool's name. */
import { describe, expect, it } from 'vitest';
import { linkIssuedBy } from '../../src/trace/issuedBy.js';
import type { TraceInput } from '../../src/trace/schema.js';

type StepInput = NonNullable<TraceInput['steps']>[number];

const asks = (...calls: { name: string; id?: string }[]): StepInput => ({
  type: 'llm',
  model: 'gpt-4o',
  output: { role: 'assistant', toolCalls: calls },
});
const says = (text: string): StepInput => ({ type: 'llm', model: 'gpt-4o', output: text });
const runs = (name: string, callId?: string, issuedBy?: number): StepInput => ({
  type: 'tool',
  name,
  ...(callId ? { callId } : {}),
  ...(issuedBy ? { issuedBy } : {}),
});

function linked(steps: StepInput[]): (number | undefined)[] {
  linkIssuedBy(steps);
  return steps.map((s) => (s.type === 'tool' ? s.issuedBy : undefined));
}

describe('linkIssuedBy', () => {
  it('links tool steps to the llm step whose output asked for their call id: one batch per response', () => {
    const steps = [
      asks({ name: 'search', id: 'a' }, { name: 'fetch', id: 'b' }),
      runs('fetch', 'b'),
      runs('search', 'a'),
      asks({ name: 'book', id: 'c' }),
      runs('book', 'c'),
    ];
    expect(linked(steps)).toEqual([undefined, 1, 1, undefined, 4]);
  });

  it('takes the nearest earlier llm step when a provider reuses ids across responses', () => {
    const steps = [
      asks({ name: 'search', id: 'call_0' }),
      runs('search', 'call_0'),
      asks({ name: 'search', id: 'call_0' }),
      runs('search', 'call_0'),
    ];
    expect(linked(steps)).toEqual([undefined, 1, undefined, 3]);
  });

  it('without ids, links by name to the last llm step, each requested call taken once', () => {
    const steps = [
      asks({ name: 'search' }, { name: 'search' }),
      runs('search'),
      runs('search'),
      runs('search'),
    ];
    // The third search was not asked for by that response: not guessed.
    expect(linked(steps)).toEqual([undefined, 1, 1, undefined]);
  });

  it('links nothing without evidence: no requested call, another name, contradicting ids, no llm step', () => {
    expect(linked([runs('search'), says('hello'), runs('search')])).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(linked([asks({ name: 'search' }), runs('fetch')])).toEqual([undefined, undefined]);
    expect(linked([asks({ name: 'search', id: 'a' }), runs('search', 'z')])).toEqual([undefined, undefined]);
    // Only the last llm step's requests count for a call without an id.
    expect(linked([asks({ name: 'search' }), says('thinking'), runs('search')])).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('keeps an issuedBy the recording already gives (a native trace)', () => {
    const steps = [asks({ name: 'search', id: 'a' }), says('x'), runs('search', 'a', 2)];
    expect(linked(steps)).toEqual([undefined, undefined, 2]);
  });
});

import { describe, expect, it } from 'vitest';
import { stepDetail } from '../../report-ui/src/model/stepDetail.js';
import { llm, makeTrace, retrieval, tool } from '../helpers/traceBuilder.js';

const stepOf = (s: Parameters<typeof makeTrace>[0][number]) => makeTrace([s]).steps[0]!;

describe('what a step opens to', () => {
  it('an LLM call: model, tokens, cost, its messages with tool calls, output and error', () => {
    const d = stepDetail(
      stepOf(
        llm({
          model: 'gpt-4o',
          provider: 'openai',
          usage: { inputTokens: 900, outputTokens: 20, cachedInputTokens: 500 },
          costUsd: 0.0025,
          costSource: 'price-table',
          input: [
            { role: 'system', content: 'You are a support agent.' },
            { role: 'assistant', toolCalls: [{ name: 'lookup', arguments: { id: 7 } }] },
          ],
          output: 'done',
          error: 'context length exceeded',
        }),
      ),
    );
    expect(d.facts).toEqual(
      expect.arrayContaining([
        { label: 'model', value: 'gpt-4o' },
        { label: 'tokens', value: '900 in, 500 cached, 20 out' },
        { label: 'cost', value: '$0.0025 (price table)' },
      ]),
    );
    expect(d.sections.map((s) => s.title)).toEqual(['Messages (2)', 'Output', 'Error']);
    expect(d.sections[0]!.messages![1]!.toolCalls).toEqual([{ name: 'lookup', args: '{\n  "id": 7\n}' }]);
    expect(d.sections[2]).toMatchObject({ text: 'context length exceeded', error: true });
  });

  it('says a call with no recorded cost was not priced', () => {
    expect(stepDetail(stepOf(llm())).facts).toContainEqual({ label: 'cost', value: 'not priced' });
  });

  it('a tool call: name, status, arguments, result and error, as text', () => {
    const d = stepDetail(
      stepOf(
        tool('charge', {
          args: { amount: 5 },
          result: '<b>ok</b>',
          status: 'error',
          error: '402',
          issuedBy: 3,
        }),
      ),
    );
    expect(d.facts).toEqual(
      expect.arrayContaining([
        { label: 'tool', value: 'charge' },
        { label: 'status', value: 'error' },
        { label: 'issued by', value: 'step 3' },
      ]),
    );
    expect(d.sections.map((s) => [s.title, s.text])).toEqual([
      ['Arguments', '{\n  "amount": 5\n}'],
      ['Result', '<b>ok</b>'],
      ['Error', '402'],
    ]);
  });

  it('indents a result that is JSON in a string, and leaves other text as it is', () => {
    const json = stepDetail(stepOf(tool('lookup', { result: '{"order":4412,"items":[1,2]}' })));
    expect(json.sections[0]!.text).toBe('{\n  "order": 4412,\n  "items": [\n    1,\n    2\n  ]\n}');
    const broken = stepDetail(stepOf(tool('lookup', { result: '{not json' })));
    expect(broken.sections[0]!.text).toBe('{not json');
  });

  it('a retrieval: the query and each result', () => {
    const d = stepDetail(
      stepOf(
        retrieval({
          query: 'refunds',
          results: [{ id: 'doc-1', score: 0.8, content: 'Refunds take 5 days.' }],
        }),
      ),
    );
    expect(d.sections.map((s) => s.title)).toEqual(['Query', 'Result 1 · doc-1 · score 0.8']);
  });
});

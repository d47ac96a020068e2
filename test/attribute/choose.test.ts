import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/attribute/candidates.js';
import { chooseRootCause, NO_CAUSE } from '../../src/attribute/choose.js';
import { signal } from '../helpers/signalBuilder.js';

const candidate = (fields: Partial<Candidate>): Candidate => ({
  step: 1,
  agent: 'a',
  rule: 'UNRECOVERED_FAILURE',
  confidence: 0.7,
  strength: 'evidence',
  evidence: 'e',
  ...fields,
});

describe('chooseRootCause', () => {
  it('no candidate: unattributed, with the reason', () => {
    expect(chooseRootCause([], [])).toEqual({ rootCause: { unattributed: NO_CAUSE } });
  });

  it('evidence beats weak evidence beats the prior, whatever their steps', () => {
    const prior = candidate({ step: 1, rule: 'BUSIEST_AGENT_PRIOR', strength: 'prior', confidence: 0.3 });
    const weak = candidate({ step: 2, strength: 'weak', confidence: 0.45 });
    const evidence = candidate({ step: 9, rule: 'DEPARTS_FROM_EXPECTED', confidence: 0.8 });
    const { rootCause, grayZone } = chooseRootCause([prior, weak, evidence], []);
    expect(rootCause).toMatchObject({ step: 9, rule: 'DEPARTS_FROM_EXPECTED', decidedBy: 'rules' });
    expect(grayZone).toBeUndefined();
    expect(chooseRootCause([prior, weak], []).rootCause).toMatchObject({
      step: 2,
      rule: 'UNRECOVERED_FAILURE',
    });
  });

  it('among evidence the earliest step wins; rules that disagree put it in the gray zone', () => {
    const late = candidate({ step: 7, rule: 'UNRECOVERED_FAILURE' });
    const early = candidate({ step: 3, rule: 'LOOP_START', basis: { detector: 'TOOL_LOOP', step: 3 } });
    const loop = signal({ detector: 'TOOL_LOOP', steps: [3, 4, 5] });
    const choice = chooseRootCause([late, early], [loop]);
    expect(choice.rootCause).toMatchObject({ step: 3, rule: 'LOOP_START', alternatives: [{ step: 7 }] });
    expect(choice.grayZone?.map((c) => c.step)).toEqual([3, 7]);
  });

  it('on one step the rule tried first; one alternative per other step', () => {
    const a = candidate({ step: 4, rule: 'ANSWER_REPEATS', confidence: 0.6 });
    const b = candidate({ step: 4, rule: 'UNRECOVERED_FAILURE' });
    const { rootCause, grayZone } = chooseRootCause([a, b], []);
    expect(rootCause).toMatchObject({ step: 4, rule: 'UNRECOVERED_FAILURE' });
    expect(rootCause).not.toHaveProperty('alternatives');
    expect(grayZone).toBeUndefined();
  });

  it('a candidate whose finding escalation dismissed is dropped', () => {
    const loop = candidate({ step: 2, rule: 'LOOP_START', basis: { detector: 'TOOL_LOOP', step: 2 } });
    const failed = candidate({ step: 5 });
    // TOOL_LOOP was cleared (not in the final signals), or is only left for review.
    expect(chooseRootCause([loop, failed], []).rootCause).toMatchObject({ step: 5 });
    const review = signal({ detector: 'TOOL_LOOP', steps: [2, 3], confidence: 0.5 });
    expect(chooseRootCause([loop, failed], [review]).rootCause).toMatchObject({ step: 5 });
  });

  it('only the prior: gray zone with the other agents’ first turns', () => {
    const main = candidate({
      step: 5,
      agent: 'WebSurfer',
      rule: 'BUSIEST_AGENT_PRIOR',
      strength: 'prior',
      confidence: 0.3,
    });
    const other = candidate({
      step: 2,
      agent: 'FileSurfer',
      rule: 'BUSIEST_AGENT_PRIOR',
      strength: 'prior',
      confidence: 0.2,
    });
    const choice = chooseRootCause([other, main], []);
    expect(choice.rootCause).toMatchObject({ step: 5, agent: 'WebSurfer', confidence: 0.3 });
    expect(choice.grayZone?.map((c) => c.agent)).toEqual(['WebSurfer', 'FileSurfer']);
  });

  it('symptoms: later findings, not the one the cause rests on, not earlier ones', () => {
    const cause = candidate({ step: 4, rule: 'LOOP_START', basis: { detector: 'TOOL_LOOP', step: 4 } });
    const signals = [
      signal({ detector: 'SLOW_STEP', steps: [2] }),
      signal({ detector: 'TOOL_LOOP', steps: [4, 5, 6] }),
      signal({ detector: 'STEP_COUNT_INFLATION', steps: [9] }),
      signal({ detector: 'CONTEXT_BLOAT', steps: [6], shadow: true }),
    ];
    expect(chooseRootCause([cause], signals).rootCause).toMatchObject({
      symptoms: [{ detector: 'STEP_COUNT_INFLATION', step: 9 }],
    });
  });
});

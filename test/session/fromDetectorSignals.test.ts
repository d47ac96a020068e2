import { describe, expect, it } from 'vitest';
import { traceSignalsFromDetectors } from '../../src/session/fromDetectorSignals.js';

describe('session signals from detector findings', () => {
  it('a clean trace scores 1 on every signal', () => {
    expect(traceSignalsFromDetectors('t', []).signals).toEqual({
      confidence: 1,
      loop_detection: 1,
      tool_correctness: 1,
      coherence: 1,
    });
  });

  it('a loop lowers loop_detection and confidence, not tool_correctness or coherence', () => {
    const s = traceSignalsFromDetectors('t', [
      { detector: 'TOOL_LOOP', confidence: 0.9, shadow: false },
    ]).signals;
    expect(s.loop_detection).toBeCloseTo(0.1);
    expect(s.confidence).toBeCloseTo(0.1);
    expect(s.tool_correctness).toBe(1);
    expect(s.coherence).toBe(1);
  });

  it('findings about spend alone (cost, budget) leave confidence as it is', () => {
    const s = traceSignalsFromDetectors('t', [
      { detector: 'OVERKILL_MODEL', confidence: 0.9, shadow: false },
      { detector: 'COST_BUDGET', confidence: 0.9, shadow: false },
    ]).signals;
    expect(s).toEqual({ confidence: 1, loop_detection: 1, tool_correctness: 1, coherence: 1 });
  });

  it('shadow, suppressed and gray-zone signals count for nothing (as toward the gate)', () => {
    const s = traceSignalsFromDetectors('t', [
      { detector: 'TOOL_LOOP', confidence: 0.55, shadow: false },
      { detector: 'TOOL_LOOP', confidence: 0.9, shadow: true },
      { detector: 'CASCADING_TOOL_FAILURE', confidence: 0.9, shadow: false, suppressedBy: 'RETRY_LOOP' },
    ]).signals;
    expect(s).toEqual({ confidence: 1, loop_detection: 1, tool_correctness: 1, coherence: 1 });
  });

  it('a decided verdict sets confidence and coherence; an indeterminate one does not', () => {
    const judged = traceSignalsFromDetectors('t', [], {
      score: 0.4,
      confidence: 0.5,
      indeterminate: false,
    }).signals;
    expect(judged.coherence).toBe(0.4);
    expect(judged.confidence).toBeCloseTo(0.2);
    const unsure = traceSignalsFromDetectors('t', [], {
      score: 0,
      confidence: 0,
      indeterminate: true,
    }).signals;
    expect(unsure.coherence).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { failureOf, mayFail } from '../../src/attribute/failedRun.js';
import { signal } from '../helpers/signalBuilder.js';
import { makeTrace } from '../helpers/traceBuilder.js';

describe('failureOf', () => {
  it('a failed outcome, an error status, or a finding that fails the gate; nothing else', () => {
    const failed = { status: 'ok' as const, outcome: { success: false, source: 'tau-bench reward' } };
    expect(failureOf(failed, [], ['critical'])).toBe('its recorded outcome failed (tau-bench reward)');
    expect(failureOf({ status: 'error' }, [], ['critical'])).toBe('it ended in error');
    const high = [signal({ severity: 'high' }), signal({ severity: 'high', detector: 'RETRY_STORM' })];
    expect(failureOf({ status: 'ok' }, high, ['critical', 'high'])).toBe(
      '2 findings that fail the gate (TOOL_LOOP, RETRY_STORM)',
    );
    // Not at the gate's severities, in the gray zone, or shadow: the run did not fail.
    expect(failureOf({ status: 'ok' }, high, ['critical'])).toBeUndefined();
    expect(failureOf({ status: 'ok' }, [signal({ confidence: 0.5 })], ['high'])).toBeUndefined();
    expect(failureOf({ status: 'ok' }, [signal({ shadow: true })], ['high'])).toBeUndefined();
    expect(
      failureOf({ status: 'ok', outcome: { success: true, source: 's' } }, [], ['high']),
    ).toBeUndefined();
  });

  it('mayFail: whether the rules need to look at all', () => {
    expect(mayFail(makeTrace([]), [])).toBe(false);
    expect(mayFail(makeTrace([], { status: 'error' }), [])).toBe(true);
    expect(mayFail(makeTrace([]), [signal({ confidence: 0.5 })])).toBe(true);
    expect(mayFail(makeTrace([]), [signal({ shadow: true })])).toBe(false);
  });
});

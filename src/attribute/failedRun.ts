/**
 * Whether a run failed, and so gets a root cause: its recorded outcome failed, it ended in error,
 * or it has a finding that fails the gate. A run with none of these has no root cause.
 */
import type { Severity, Signal } from '../detect/signal.js';
import { statusOf } from '../detect/status.js';
import type { Outcome, Trace } from '../trace/schema.js';

export interface RunResult {
  status: Trace['status'];
  outcome?: Outcome;
}

/** Why the run failed, in a few words; undefined when it did not. */
export function failureOf(
  run: RunResult,
  signals: readonly Signal[],
  failOn: readonly Severity[],
): string | undefined {
  if (run.outcome && !run.outcome.success) return `its recorded outcome failed (${run.outcome.source})`;
  if (run.status === 'error') return 'it ended in error';
  const failing = signals.filter((s) => statusOf(s) === 'finding' && failOn.includes(s.severity));
  if (failing.length === 0) return undefined;
  const detectors = [...new Set(failing.map((s) => s.detector))];
  return `${failing.length} finding${failing.length === 1 ? '' : 's'} that fail the gate (${detectors.slice(0, 3).join(', ')}${detectors.length > 3 ? ', …' : ''})`;
}

/**
 * Whether attribution should look at a trace at all, judged where the trace is, before escalation
 * settles its signals: any run that could turn out failed (a signal may still become a finding).
 */
export function mayFail(trace: Trace, signals: readonly Signal[]): boolean {
  return (
    trace.outcome?.success === false ||
    trace.status === 'error' ||
    signals.some((s) => !s.shadow && !s.suppressedBy)
  );
}

/** The gate: which findings fail a run. Shadow and suppressed signals never do. */
import { isConfirmed } from '../detect/grayZone.js';
import type { Severity, Signal } from '../detect/signal.js';
import { fmtInt } from '../util/thousands.js';

export interface GateResult {
  passed: boolean;
  reasons: string[];
}

/** Why a run with nothing to judge fails: "no findings" must not read as "no problems". */
export const NO_INPUT_REASON = 'no usable trace in the input: nothing was analysed (see inputs.errors)';

/** A detector that threw on a trace (the runner's DetectorFailure, as far as the gate needs it). */
export interface GateDetectorFailure {
  detector: string;
  traceId: string;
}

/**
 * `traces` is how many traces were analysed; none fails the gate, so that a CI step reading only
 * `gate.passed` does not pass a run whose input was empty, unreadable or all invalid.
 *
 * `failures` are detectors that threw. They fail the gate too (fail closed): a check that crashed
 * found nothing because it did not look, and a CI step reading only `gate.passed` must not take that
 * for a clean run. They come first in `reasons`, being about the tool rather than the agent.
 */
export function evaluateGate(
  signals: readonly Signal[],
  failOn: readonly Severity[],
  traces: number,
  failures: readonly GateDetectorFailure[] = [],
): GateResult {
  if (traces === 0) return { passed: false, reasons: [NO_INPUT_REASON] };
  const failing = new Map<string, { count: number; severity: Severity }>();
  for (const s of signals) {
    if (s.shadow || !isConfirmed(s) || !failOn.includes(s.severity)) continue;
    const entry = failing.get(s.detector) ?? { count: 0, severity: s.severity };
    entry.count++;
    failing.set(s.detector, entry);
  }
  const reasons = [
    ...crashReasons(failures),
    ...[...failing.entries()]
      .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))
      .map(
        ([id, { count, severity }]) => `${id}: ${fmtInt(count)} ${severity} signal${count === 1 ? '' : 's'}`,
      ),
  ];
  return { passed: reasons.length === 0, reasons };
}

/** "REASONING_STALL failed on 2 traces (a tracejury bug; see notes)", one per detector. */
function crashReasons(failures: readonly GateDetectorFailure[]): string[] {
  if (failures.length === 0) return [];
  // A detector runs once per trace, so its failures count traces (ids can repeat across files).
  const traces = new Map<string, number>();
  for (const f of failures) traces.set(f.detector, (traces.get(f.detector) ?? 0) + 1);
  return [...traces.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([id, n]) => `${id} failed on ${fmtInt(n)} trace${n === 1 ? '' : 's'} (a tracejury bug; see notes)`);
}

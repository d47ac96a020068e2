/** The gate: which findings fail a run. Shadow and suppressed signals never do. */
import { isConfirmed } from '../detect/grayZone.js';
import type { Severity, Signal } from '../detect/signal.js';

export interface GateResult {
  passed: boolean;
  reasons: string[];
}

/** Why a run with nothing to judge fails: "no findings" must not read as "no problems". */
export const NO_INPUT_REASON = 'no usable trace in the input: nothing was analysed (see inputs.errors)';

/**
 * `traces` is how many traces were analysed; none fails the gate, so that a CI step reading only
 * `gate.passed` does not pass a run whose input was empty, unreadable or all invalid.
 */
export function evaluateGate(
  signals: readonly Signal[],
  failOn: readonly Severity[],
  traces: number,
): GateResult {
  if (traces === 0) return { passed: false, reasons: [NO_INPUT_REASON] };
  const failing = new Map<string, { count: number; severity: Severity }>();
  for (const s of signals) {
    if (s.shadow || !isConfirmed(s) || !failOn.includes(s.severity)) continue;
    const entry = failing.get(s.detector) ?? { count: 0, severity: s.severity };
    entry.count++;
    failing.set(s.detector, entry);
  }
  const reasons = [...failing.entries()]
    .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))
    .map(([id, { count, severity }]) => `${id}: ${count} ${severity} signal${count === 1 ? '' : 's'}`);
  return { passed: reasons.length === 0, reasons };
}

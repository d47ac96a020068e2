/** The gate: which findings fail a run. Shadow and suppressed signals never do. */
import { statusOf } from '../detect/status.js';
import { severityRank, type Severity, type Signal } from '../detect/signal.js';
import { formatInputError, type InputError } from '../trace/inputError.js';
import { fmtInt } from '../util/thousands.js';

export interface GateResult {
  passed: boolean;
  reasons: string[];
}

/** Why a run with nothing to judge fails: "no findings" must not read as "no problems". */
export const NO_INPUT_REASON = 'no usable trace in the input: nothing was analysed (see inputs.errors)';

/** Input that could not be read, as far as the gate needs it. */
export interface GateInputErrors {
  count: number;
  /** `--allow-input-errors` or `failOn: { inputErrors: false }`: listed, never failing. */
  allowed: boolean;
  /** The first, to name in the reason. */
  first?: InputError;
}

/**
 * "45 input errors: input that could not be read (first: calls.jsonl:12: usage: …); fix the
 * recorder or pass --allow-input-errors". Fails closed: a truncated file or a recorder bug must not
 * turn a CI check green because the traces it lost were never judged.
 */
function inputReasons(input: GateInputErrors): string[] {
  if (input.count === 0 || input.allowed) return [];
  const first = input.first ? ` (first: ${formatInputError(input.first)})` : '';
  return [
    `${fmtInt(input.count)} input error${input.count === 1 ? '' : 's'}: input that could not be read${first}; ` +
      'fix the input, or pass --allow-input-errors (failOn.inputErrors: false) to judge only what could be read',
  ];
}

/** A detector that threw on a trace (the runner's DetectorFailure, as far as the gate needs it). */
export interface GateDetectorFailure {
  detector: string;
  traceId: string;
}

/**
 * Reasons name each failing detector with its counts per severity, worst detector first (by its
 * worst severity, then by count).
 *
 * `traces` is how many traces were analysed; none fails the gate, so that a CI step reading only
 * `gate.passed` does not pass a run whose input was empty, unreadable or all invalid.
 *
 * `failures` are detectors that threw. They fail the gate too (fail closed): a check that crashed
 * found nothing because it did not look, and a CI step reading only `gate.passed` must not take that
 * for a clean run. They come first in `reasons`, being about the tool rather than the agent.
 */
export function evaluateGate(
  signals: Iterable<Signal>,
  failOn: readonly Severity[],
  traces: number,
  failures: readonly GateDetectorFailure[] = [],
  input: GateInputErrors = { count: 0, allowed: false },
): GateResult {
  if (traces === 0) return { passed: false, reasons: [NO_INPUT_REASON] };
  /** Per detector, how many failing signals of each severity. */
  const failing = new Map<string, Map<Severity, number>>();
  for (const s of signals) {
    if (statusOf(s) !== 'finding' || !failOn.includes(s.severity)) continue;
    let bySeverity = failing.get(s.detector);
    if (!bySeverity) failing.set(s.detector, (bySeverity = new Map()));
    bySeverity.set(s.severity, (bySeverity.get(s.severity) ?? 0) + 1);
  }
  const rows = [...failing.entries()].map(([id, bySeverity]) => {
    const counts = [...bySeverity.entries()].sort((a, b) => severityRank(b[0]) - severityRank(a[0]));
    let total = 0;
    for (const [, n] of counts) total += n;
    return { id, counts, worst: severityRank(counts[0]![0]), total };
  });
  const reasons = [
    ...inputReasons(input),
    ...crashReasons(failures),
    ...rows
      .sort((a, b) => b.worst - a.worst || b.total - a.total || a.id.localeCompare(b.id))
      .map(({ id, counts }) => `${id}: ${signalCounts(counts)}`),
  ];
  return { passed: reasons.length === 0, reasons };
}

/**
 * "2 high signals"; with several severities, worst first: "1 high and 1 medium signal",
 * "2 critical, 1 high and 3 medium signals" (the noun agrees with the last count).
 */
function signalCounts(counts: readonly (readonly [Severity, number])[]): string {
  const parts = counts.map(([severity, n]) => `${fmtInt(n)} ${severity}`);
  const last = parts.pop()!;
  const n = counts[counts.length - 1]![1];
  return `${parts.length ? `${parts.join(', ')} and ` : ''}${last} signal${n === 1 ? '' : 's'}`;
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

/**
 * The two lines a reviewer reads first: the verdict, naming the `regression:` rule that decided it
 * and the number that fired it, and cost, waste and findings with their changes and a plain word
 * for noise. The words come from the diff (its gate failures, its noise labels, its policy), never
 * from deciding anything again: a rule that failed is named as the gate recorded it, and a change
 * the gate did not fail on says why (within noise, under the limit, too few traces to tell).
 */
import { safeMd, mdCode, joinMd, type Markdown } from '../redact/markdown.js';
import { formatUsd } from '../report/summarise.js';
import { fmtInt } from '../util/thousands.js';
import type { Delta } from './delta.js';
import { pct, type GateFailure } from './gate.js';
import type { Noise } from './noise.js';
import type { ReportDiff } from './schema.js';

/** "within noise", "up", "down", or why there is no interval ("too few traces to tell"). */
export function noiseWord(n: Noise): string {
  if (n.label === 'up' || n.label === 'down' || n.label === 'within noise') return n.label;
  return n.label.replace(/^too few (\w+).*$/, 'too few $1 to tell');
}

/** "… (rule `regression.newSignals.minSeverity`: high)", or the failure alone when no setting decides it. */
function failureText(f: GateFailure): Markdown {
  if (f.rule === 'comparable') return safeMd`${f.fired}: the change cannot be judged`;
  return safeMd`${f.fired} (rule ${mdCode(f.setting)}: ${f.limit})`;
}

/**
 * The regression gate's failures as plain text, for a check run's title: "1 new finding at high
 * or worse (rule regression.newSignals.minSeverity: high)"; undefined when it passed.
 */
export function failuresText(diff: ReportDiff): string | undefined {
  if (diff.gate.passed) return undefined;
  const failures = diff.gate.failures;
  if (!failures?.length) return diff.gate.reasons[0];
  return failures
    .map((f) => (f.rule === 'comparable' ? f.fired : `${f.fired} (rule ${f.setting}: ${f.limit})`))
    .join('; ');
}

/**
 * What a passing gate checked, in a few words each: "no new finding at high or worse", "waste per
 * trace within noise" (or "+5% (under 20%)", "down", "too few traces to tell").
 */
function passedChecks(diff: ReportDiff): string[] {
  const { regression: policy, noise, verdicts } = diff;
  const checks: string[] = [];
  if (policy.newSignals) checks.push(`no new finding at ${policy.newSignals.minSeverity} or worse`);
  if (policy.wasteIncreasePct !== false) {
    const w = noise.wastePerTrace;
    checks.push(
      w.label === 'up' && w.relative !== null
        ? `waste per trace +${pct(w.relative)}, under the ${policy.wasteIncreasePct}% limit`
        : `waste per trace ${noiseWord(w)}`,
    );
  }
  if (policy.verdictPassRateDrop !== false && verdicts.noise)
    checks.push(`judges' pass rate ${noiseWord(verdicts.noise)}`);
  return checks;
}

/**
 * `### tracejury ❌ regression: 1 new finding at high or worse (rule `regression.newSignals.minSeverity`: high)`.
 * A diff written before failures were recorded (diffVersion 1 without `gate.failures`) gives its
 * first reason instead.
 */
export function verdictHeading(diff: ReportDiff, title: string): Markdown {
  if (diff.gate.passed) {
    const checks = passedChecks(diff);
    return safeMd`### ${title} ✅ no regression${checks.length ? safeMd`: ${checks.join('; ')}` : ''}`;
  }
  const failures = diff.gate.failures;
  const why = failures?.length
    ? joinMd(failures.map(failureText), safeMd`; `)
    : safeMd`${diff.gate.reasons[0] ?? 'failed'}`;
  return safeMd`### ${title} ❌ regression: ${why}`;
}

/** "$0.0309 → $0.0559 (+80.7%; per trace within noise)", or "$0.0309, unchanged". */
function moneyMove(d: Delta, perTrace: Noise, failedHere: boolean): string {
  if (d.delta === 0) return `${formatUsd(d.head)}, unchanged`;
  const change =
    d.relative === null ? `${d.delta > 0 ? '+' : '-'}${formatUsd(Math.abs(d.delta))}` : signedPct(d.relative);
  // The gate failing on this number says so here, not "within noise".
  const word = failedHere ? 'cannot be judged' : `per trace ${noiseWord(perTrace)}`;
  return `${formatUsd(d.base)} → ${formatUsd(d.head)} (${change}; ${word})`;
}

const signedPct = (relative: number) => `${relative > 0 ? '+' : ''}${pct(relative)}`;

/**
 * "**Cost** $0.0309 → $0.0559 (+80.7%; per trace within noise) · **Waste** … · **Findings** 7 → 7:
 * 1 new, 1 resolved" — plus the judges' pass rate when either side has verdicts.
 */
export function metricsLine(diff: ReportDiff): Markdown {
  const { totals, noise, signals, verdicts } = diff;
  const wasteUncomparable = diff.gate.failures?.some((f) => f.rule === 'comparable') ?? false;
  const findings =
    signals.new.length === 0 && signals.resolved.length === 0
      ? safeMd`${fmtInt(totals.findings.head)}, none new or resolved`
      : safeMd`${fmtInt(totals.findings.base)} → ${fmtInt(totals.findings.head)}: ${fmtInt(signals.new.length)} new, ${fmtInt(signals.resolved.length)} resolved`;
  const parts = [
    safeMd`**Cost** ${moneyMove(totals.costUsd, noise.costPerTrace, false)}`,
    safeMd`**Waste** ${moneyMove(totals.wasteUsd, noise.wastePerTrace, wasteUncomparable)}`,
    safeMd`**Findings** ${findings}`,
  ];
  if (verdicts.base.rate !== null && verdicts.head.rate !== null)
    parts.push(
      safeMd`**Judges' pass rate** ${verdicts.base.rate.toFixed(2)} → ${verdicts.head.rate.toFixed(2)}${verdicts.noise ? ` (${noiseWord(verdicts.noise)})` : ''}`,
    );
  return joinMd(parts, safeMd` · `);
}

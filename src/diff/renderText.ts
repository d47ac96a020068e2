/** The diff for a terminal: the gate and the headline first, then what changed and whether it is noise. */
import { attributionDiffText } from './attribution.js';
import { formatUsd } from '../report/summarise.js';
import { terminalText } from '../redact/safeText.js';
import { fmtInt } from '../util/thousands.js';
import {
  countChange,
  intervalText,
  perTraceText,
  relativeText,
  signedInt,
  signedUsd,
  usdChange,
} from './format.js';
import type { DiffSignal } from './match.js';
import type { Noise } from './noise.js';
import type { ReportDiff } from './schema.js';

export interface DiffTextOptions {
  color?: boolean;
  /** Items each list shows (new and resolved findings, sessions, review cases); default 20. */
  limit?: number;
}

/** Report text is redacted and printed with control characters shown, never sent to the terminal. */
const show = (s: string) => terminalText(s);

export function renderDiffText(diff: ReportDiff, options: DiffTextOptions = {}): string {
  const paint = (code: number, off: number) => (s: string) =>
    options.color ? `\x1b[${code}m${s}\x1b[${off}m` : s;
  const c = {
    b: paint(1, 22),
    red: paint(31, 39),
    green: paint(32, 39),
    dim: paint(2, 22),
    yellow: paint(33, 39),
  };
  const limit = options.limit ?? 20;
  const { totals, noise } = diff;
  const lines: string[] = [];
  const gate = diff.gate.passed
    ? c.green('Regression gate: passed')
    : c.red(`Regression gate: FAILED — ${diff.gate.reasons.map(show).join('; ')}`);
  lines.push(
    c.b('tracejury diff') +
      ` — base ${fmtInt(diff.base.traces)} traces, head ${fmtInt(diff.head.traces)} traces`,
    '',
    gate,
    `Waste: ${usdChange(totals.wasteUsd)}; per 100 traces ${formatUsd(totals.wastePer100Traces.base)} → ${formatUsd(totals.wastePer100Traces.head)}`,
    `Cost: ${usdChange(totals.costUsd)}; findings ${countChange(totals.findings)}: ` +
      `${fmtInt(diff.signals.new.length)} new, ${fmtInt(diff.signals.resolved.length)} resolved, ${fmtInt(diff.signals.persisting)} persisting`,
  );
  if (diff.attribution) lines.push(show(attributionDiffText(diff.attribution)));
  for (const n of diff.notes) lines.push(c.yellow(`Note: ${show(n)}`));

  lines.push(
    '',
    c.b('Per trace') +
      c.dim(
        ` (${Math.round(noise.confidence * 100)}% bootstrap interval of the change, ${fmtInt(noise.resamples)} resamples)`,
      ),
  );
  const row = (name: string, n: Noise, usd: boolean) => {
    const rel = relativeText(n);
    const change = usd ? signedUsd(n.delta) : `${n.delta > 0 ? '+' : ''}${Math.round(n.delta * 1000) / 1000}`;
    const label = n.label === 'up' ? c.red('up') : n.label === 'down' ? c.green('down') : c.dim(n.label);
    return `  ${name.padEnd(30)} ${perTraceText(n.base, usd).padStart(10)} → ${perTraceText(n.head, usd).padEnd(10)} ${(change + (rel ? ` (${rel})` : '')).padEnd(20)} ${intervalText(n, usd).padEnd(24)} ${label}`;
  };
  lines.push(row('waste', noise.wastePerTrace, true), row('cost', noise.costPerTrace, true));
  for (const [d, n] of Object.entries(noise.findingsPerTrace))
    lines.push(row(`${show(d)} findings`, n, false));

  if (diff.detectors.length > 0) {
    lines.push('', c.b('Waste by detector'));
    for (const d of diff.detectors)
      lines.push(
        `  ${show(d.detector).padEnd(26)} ${`${fmtInt(d.findings.base)} → ${fmtInt(d.findings.head)} (${signedInt(d.findings.delta)})`.padEnd(16)} ${usdChange(d.wasteUsd)}`,
      );
  }
  const list = (title: string, signals: readonly DiffSignal[], what: string) => {
    if (signals.length === 0) return;
    lines.push('', c.b(`${title} (${fmtInt(signals.length)})`));
    for (const s of signals.slice(0, limit))
      lines.push(
        `  ${show(s.detector).padEnd(24)} ${s.severity.padEnd(8)} ` +
          c.dim(
            s.test !== undefined ? show(s.test) : `${show(s.traceId)}${s.file ? ` (${show(s.file)})` : ''}`,
          ) +
          `: ${show(s.message)}${s.wasteUsd ? ` — ${formatUsd(s.wasteUsd)}` : ''}`,
      );
    if (signals.length > limit)
      lines.push(c.dim(`  … ${fmtInt(signals.length - limit)} more ${what} not shown (--format json)`));
  };
  list('New findings', diff.signals.new, 'new signals');
  list('Resolved findings', diff.signals.resolved, 'resolved signals');

  if (diff.sessions.length > 0) {
    lines.push('', c.b('Session scores'));
    const score = (x: number | null) => (x === null ? '–' : x.toFixed(3));
    for (const s of diff.sessions.slice(0, limit))
      lines.push(
        `  ${show(s.test ?? s.sessionId).padEnd(30)} ${s.metric.padEnd(18)} ${score(s.base)} → ${score(s.head)}` +
          (s.delta === null ? '' : ` (${s.delta > 0 ? '+' : ''}${s.delta.toFixed(3)})`),
      );
    if (diff.sessions.length > limit)
      lines.push(c.dim(`  … ${fmtInt(diff.sessions.length - limit)} more session scores`));
  }
  const v = diff.verdicts;
  if (v.base.total > 0 || v.head.total > 0) {
    const r = (x: number | null) => (x === null ? '–' : x.toFixed(2));
    lines.push(
      '',
      `Verdicts: pass rate ${r(v.base.rate)} → ${r(v.head.rate)} (${v.base.passed}/${v.base.total} → ${v.head.passed}/${v.head.total})${v.noise ? `, ${v.noise.label}` : ''}`,
    );
  }
  if (diff.review.length > 0) {
    lines.push('', `For review in head: ${fmtInt(diff.review.length)}`);
    for (const r of diff.review.slice(0, limit))
      lines.push(
        c.dim(
          `  ${r.detector ? `${show(r.detector)} ` : ''}${show(r.traceId)}${r.file ? ` (${show(r.file)})` : ''}: `,
        ) + show(r.reason),
      );
    if (diff.review.length > limit)
      lines.push(c.dim(`  … ${fmtInt(diff.review.length - limit)} more review cases`));
  }
  lines.push('', `Judge spend: ${usdChange(totals.judgeUsd)}`, gate);
  return lines.join('\n') + '\n';
}

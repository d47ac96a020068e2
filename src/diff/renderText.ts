/** The diff for a terminal: the gate and the headline first, then what changed and whether it is noise. */
import { attributionDiffText } from './attribution.js';
import { formatUsd } from '../report/summarise.js';
import { terminalText } from '../redact/safeText.js';
import { fmtInt, plural } from '../util/thousands.js';
import { countChange, signedInt, usdChange } from './format.js';
import { headlineQuantity, readingWord } from './headline.js';
import type { DiffSignal } from './match.js';
import { commonPassHatK, type FlippedTask, type OutcomesDiff, type SuccessRate } from './outcomes.js';
import {
  minDetectableText,
  pairingText,
  percentText,
  quantityRow,
  type QuantityRow,
} from './quantityText.js';
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
  const { totals } = diff;
  const lines: string[] = [];
  const gate = diff.gate.passed
    ? c.green('Regression gate: passed')
    : c.red(`Regression gate: FAILED — ${diff.gate.reasons.map(show).join('; ')}`);
  lines.push(
    c.b('tracejury diff') +
      ` — base ${plural(diff.base.traces, 'trace')}, head ${plural(diff.head.traces, 'trace')}`,
    '',
    gate,
  );
  if (!diff.head.gatePassed)
    lines.push(c.red(`Head's own gate: FAILED — ${show(diff.head.gateReason ?? 'failed')}`));
  const o = diff.outcomes;
  if (o) lines.push(successLine(o));
  lines.push(
    `Cost: ${moneyText(diff, 'cost')}`,
    `Waste: ${moneyText(diff, 'waste')}`,
    `Findings: ${countChange(totals.findings)}: ` +
      `${fmtInt(diff.signals.new.length)} new, ${fmtInt(diff.signals.resolved.length)} resolved, ${fmtInt(diff.signals.persisting)} persisting`,
  );
  if (diff.attribution) lines.push(show(attributionDiffText(diff.attribution)));
  for (const n of diff.notes) lines.push(c.yellow(`Note: ${show(n)}`));

  lines.push(
    '',
    c.b('Quantities') +
      c.dim(
        ` (one-sided tests toward worse; Holm's correction at α ${diff.gate.alpha} across the gated ones; 95% intervals)`,
      ),
  );
  const rows = diff.quantities.map((q) => quantityRow(q, diff.regression));
  const width = (f: (r: QuantityRow) => string, min: number) =>
    Math.max(min, ...rows.map((r) => show(f(r)).length));
  const w = {
    name: width((r) => r.name, 8),
    base: width((r) => r.base, 4),
    head: width((r) => r.head, 4),
    change: width((r) => r.change, 6),
    interval: width((r) => r.interval, 8),
    test: width((r) => r.test, 4),
    p: width((r) => r.p, 1),
  };
  const tone = (r: QuantityRow) =>
    r.tone === 'failed'
      ? c.red(r.verdict)
      : r.tone === 'worse'
        ? c.yellow(r.verdict)
        : r.tone === 'better'
          ? c.green(r.verdict)
          : c.dim(r.verdict);
  lines.push(
    c.dim(
      `  ${'quantity'.padEnd(w.name)}  ${'base'.padStart(w.base)} → ${'head'.padEnd(w.head)}  ${'change'.padEnd(w.change)}  ${'interval'.padEnd(w.interval)}  ${'test'.padEnd(w.test)}  ${'p'.padEnd(w.p)}`,
    ),
  );
  for (const r of rows)
    lines.push(
      `  ${show(r.name).padEnd(w.name)}  ${r.base.padStart(w.base)} → ${r.head.padEnd(w.head)}  ${r.change.padEnd(w.change)}  ${r.interval.padEnd(w.interval)}  ${show(r.test).padEnd(w.test)}  ${r.p.padEnd(w.p)}  ${tone(r)}`,
    );
  const headline = headlineQuantity(diff);
  const detectable =
    headline && headline.reading === 'within noise' ? minDetectableText(headline) : undefined;
  if (detectable) lines.push(c.dim(`  ${show(detectable)}`));

  if (o && o.byAgent.length > 0) {
    lines.push('', c.b('Success by agent'));
    for (const a of o.byAgent)
      lines.push(`  ${show(a.agent).padEnd(30)} ${rateText(a.base)} → ${rateText(a.head)}`);
  }
  if (o) {
    const flips = (title: string, list: FlippedTask[], count: number) => {
      if (count === 0) return;
      lines.push('', c.b(`${title} (${fmtInt(count)})`));
      for (const t of list.slice(0, limit))
        lines.push(
          `  ${show(t.task).padEnd(30)} ${t.base.passed}/${t.base.runs} → ${t.head.passed}/${t.head.runs}`,
        );
      if (count > Math.min(limit, list.length))
        lines.push(
          c.dim(`  … ${fmtInt(count - Math.min(limit, list.length))} more tasks not shown (--format json)`),
        );
    };
    flips('Tasks pass → fail', o.flipped.toFail, o.flipped.toFailCount);
    flips('Tasks fail → pass', o.flipped.toPass, o.flipped.toPassCount);
  }

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
      `Verdicts: pass rate ${r(v.base.rate)} → ${r(v.head.rate)} (${v.base.passed}/${v.base.total} → ${v.head.passed}/${v.head.total})`,
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

const rateText = (r: SuccessRate | null) =>
  r === null ? '–' : `${percentText(r.rate)} (${fmtInt(r.succeeded)}/${fmtInt(r.runs)})`;

const SOURCE_WORDS = {
  tests: 'test attempts',
  outcomes: 'recorded outcomes',
  verdicts: "the judges' verdicts",
};

/** "Success: 66 % (132/200; 59 %–72 %) → 25 % (…), from recorded outcomes". */
function successLine(o: OutcomesDiff): string {
  const side = (r: SuccessRate | null) =>
    r === null
      ? 'not recorded'
      : `${rateText(r)}; 95% ${percentText(r.interval[0])}–${percentText(r.interval[1])}`;
  const pk = commonPassHatK(o);
  const k = pk ? `; pass^${pk.k} ${pk.base.toFixed(2)} → ${pk.head.toFixed(2)}` : '';
  return `Success: ${side(o.base)} → ${side(o.head)}, from ${SOURCE_WORDS[o.source]}${k}`;
}

/** Cost or waste in total, and per run with its reading; or unknown, and why. */
function moneyText(diff: ReportDiff, id: 'cost' | 'waste'): string {
  const q = diff.quantities.find((x) => x.id === id);
  if (q?.status === 'unknown') return `unknown — ${q.why ?? ''}`;
  const d = id === 'cost' ? diff.totals.costUsd : diff.totals.wasteUsd;
  if (q?.status === 'invalid' || !Number.isFinite(d.base) || !Number.isFinite(d.head))
    return `cannot be judged — ${q?.why ?? 'not a finite number'}`;
  // Paired with runs left out, per run is over the tasks both sides ran: say which.
  const over = q?.pairing?.leftOut ? ` (the ${pairingText(q)})` : '';
  const perRun =
    q?.status === 'compared'
      ? `; per run${over} ${formatUsd(q.base.mean ?? 0)} → ${formatUsd(q.head.mean ?? 0)}, ${readingWord(q)}`
      : '';
  return `${usdChange(d)}${perRun}`;
}

/**
 * The two lines a reviewer reads first: the verdict, and success, cost, waste and findings with
 * their changes and a plain word for noise. The words come from the diff (its gate, its
 * quantities), never from deciding anything again.
 *
 * The verdict names what moved and by how much: "❌ success 66 % → 25 % (−42 pts, 95 % interval
 * −50 … −33), 194 tasks paired". When nothing failed it says what was checked and, when the change
 * could not be told from noise, how small a change these runs could have told ("at 20 runs a side
 * a drop in success under 41 points cannot be told from noise"). Head failing its own gate (a
 * test run whose tests failed) makes the verdict ❌ too, whatever the comparison says.
 */
import { safeMd, joinMd, type Markdown } from '../redact/markdown.js';
import { formatUsd } from '../report/summarise.js';
import { fmtInt, plural } from '../util/thousands.js';
import type { Delta } from './delta.js';
import type { GateFailure } from './gate.js';
import type { Quantity } from './quantity.js';
import { changeText, deltaText, minDetectableText, valueText } from './quantityText.js';
import type { CostCoverageSchema, ReportDiff } from './schema.js';
import type { z } from 'zod';

/** A quantity's reading in a word: "worse", "better", "within noise", "unknown", "not compared". */
export function readingWord(q: Quantity): string {
  if (q.status === 'unknown') return 'unknown';
  if (q.status !== 'compared') return 'not compared';
  if (q.decision === 'small') return 'worse, under its minimum effect';
  if (q.decision === 'excused') return 'worse, excused: success rose';
  return q.reading ?? 'within noise';
}

/** The quantity the verdict speaks of when nothing failed: success when compared, else the finding share. */
export function headlineQuantity(diff: ReportDiff): Quantity | undefined {
  const compared = (id: string) => diff.quantities.find((q) => q.id === id && q.status === 'compared');
  return compared('success') ?? compared('findings');
}

/** A failure as the verdict says it: the quantity's change, or the rule and what fired it. */
function failureText(f: GateFailure): string {
  if (f.rule === 'comparable') return `${f.fired}: the change cannot be judged`;
  if (f.rule === 'quantity') return f.fired;
  return `${f.fired} (rule ${f.setting}: ${f.limit})`;
}

/**
 * The regression gate's failures as plain text, for a check run's title; undefined when it passed.
 */
export function failuresText(diff: ReportDiff): string | undefined {
  if (diff.gate.passed) return undefined;
  if (diff.gate.failures.length === 0) return diff.gate.reasons[0];
  return diff.gate.failures.map(failureText).join('; ');
}

/** What a passing comparison says of its headline quantity: its change, and what the runs could tell. */
function passedSummary(diff: ReportDiff): string {
  const q = headlineQuantity(diff);
  if (!q) return 'nothing to compare (no run measured success or findings on both sides)';
  const word = readingWord(q);
  const detectable = q.reading === 'within noise' ? minDetectableText(q) : undefined;
  return `${changeText(q)}; ${word}${detectable ? ` (${detectable})` : ''}`;
}

/** "2 of 2 tests failed in head", or head's own gate's first reason. */
function headFailure(diff: ReportDiff): string {
  const t = diff.head.tests;
  if (t && t.failed > 0) return `${fmtInt(t.failed)} of ${plural(t.total, 'test')} failed in head`;
  return `head's own gate failed${diff.head.gateReason ? `: ${cut(diff.head.gateReason, 160)}` : ''}`;
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The verdict in plain text, and its mark: "❌", "success 66 % → 25 % (−42 pts, 95 % interval −50 …
 * −33), 194 tasks paired".
 */
export function verdictText(diff: ReportDiff): { mark: '✅' | '❌'; text: string } {
  if (!diff.gate.passed) {
    const [first, ...rest] = diff.gate.failures;
    const why = first ? failureText(first) : (diff.gate.reasons[0] ?? 'failed');
    const more = rest.length ? ` (and ${rest.map((f) => f.quantity ?? f.rule).join(', ')})` : '';
    return { mark: '❌', text: `${why}${more}` };
  }
  if (!diff.head.gatePassed)
    return {
      mark: '❌',
      text: `${headFailure(diff)}; no regression shown against base: ${passedSummary(diff)}`,
    };
  return { mark: '✅', text: `no regression: ${passedSummary(diff)}` };
}

/** `### tracejury ❌ success 66 % → 25 % (−42 pts, 95 % interval −50 … −33), 194 tasks paired`. */
export function verdictHeading(diff: ReportDiff, title: string): Markdown {
  const v = verdictText(diff);
  return safeMd`### ${title} ${v.mark} ${v.text}`;
}

type Coverage = z.infer<typeof CostCoverageSchema>;

/** "unknown: head's 1,090 LLM calls carry no token counts or recorded cost". */
function unknownMoney(diff: ReportDiff): string | undefined {
  const side = (name: string, c: Coverage) =>
    c.known === 'none'
      ? `${name}'s ${plural(c.llmCalls, 'LLM call')} carry no token counts or recorded cost${c.unpriced > 0 ? ' (or have no price)' : ''}`
      : undefined;
  const why = [side('base', diff.costs.base), side('head', diff.costs.head)].filter(Boolean);
  return why.length ? `unknown: ${why.join('; ')}` : undefined;
}

/** "$0.0309 → $0.0559 (+80.7 %; per run within noise)", "$0.0309, unchanged", or unknown. */
function moneyMove(d: Delta, q: Quantity | undefined, unknown: string | undefined): string {
  if (unknown) return unknown;
  if (q?.status === 'invalid' || !Number.isFinite(d.base) || !Number.isFinite(d.head))
    return 'cannot be judged';
  const word = q ? `per run ${readingWord(q)}` : '';
  if (d.delta === 0) return `${formatUsd(d.head)}, unchanged`;
  const rel =
    d.relative === null
      ? ''
      : `${d.relative > 0 ? '+' : '−'}${Math.abs(Math.round(d.relative * 1000) / 10)} %`;
  return `${formatUsd(d.base)} → ${formatUsd(d.head)} (${[rel, word].filter(Boolean).join('; ')})`;
}

const quantityOf = (diff: ReportDiff, id: string) => diff.quantities.find((q) => q.id === id);

/**
 * "**Success** 60 % → 62 % (+2 pts; within noise) · **Cost** … · **Waste** … · **Findings** 7 → 9:
 * 3 new, 1 resolved; runs with a high-or-worse finding 10 % → 12 % (within noise)".
 */
export function metricsLine(diff: ReportDiff): Markdown {
  const { totals, signals } = diff;
  const parts: Markdown[] = [];
  const success = quantityOf(diff, 'success');
  if (success?.status === 'compared')
    parts.push(
      safeMd`**Success** ${valueText(success, success.base.mean)} → ${valueText(success, success.head.mean)} (${deltaText(success, success.change!)}; ${readingWord(success)})`,
    );
  else if (success) parts.push(safeMd`**Success** not compared: ${success.why ?? ''}`);
  const unknown = unknownMoney(diff);
  parts.push(
    safeMd`**Cost** ${moneyMove(totals.costUsd, quantityOf(diff, 'cost'), unknown)}`,
    safeMd`**Waste** ${moneyMove(totals.wasteUsd, quantityOf(diff, 'waste'), unknown ? 'unknown, as cost is' : undefined)}`,
  );
  const counts =
    signals.new.length === 0 && signals.resolved.length === 0
      ? `${fmtInt(totals.findings.head)}, none new or resolved`
      : `${fmtInt(totals.findings.base)} → ${fmtInt(totals.findings.head)}: ${fmtInt(signals.new.length)} new, ${fmtInt(signals.resolved.length)} resolved`;
  const share = quantityOf(diff, 'findings');
  const shareText =
    share?.status === 'compared'
      ? `; ${share.label} ${valueText(share, share.base.mean)} → ${valueText(share, share.head.mean)} (${readingWord(share)})`
      : '';
  parts.push(safeMd`**Findings** ${counts}${shareText}`);
  const v = diff.verdicts;
  if (v.base.rate !== null && v.head.rate !== null)
    parts.push(safeMd`**Judges' pass rate** ${v.base.rate.toFixed(2)} → ${v.head.rate.toFixed(2)}`);
  return joinMd(parts, safeMd` · `);
}

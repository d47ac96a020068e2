/**
 * The diff as markdown: what the GitHub Action posts as its sticky PR comment. Everything that
 * came from a report (and so maybe from a trace) is redacted and escaped; detector ids go in code
 * spans only when they are plain identifiers. The comment stays under GitHub's limit: the longest
 * lists are cut first, each saying how much it left out.
 */
import { escapeMarkdown, inlineCode } from '../report/markdownEscape.js';
import { MARKDOWN_LIMIT } from '../report/renderMarkdown.js';
import { formatUsd } from '../report/summarise.js';
import { redact } from '../redact/redact.js';
import { fmtInt, plural } from '../util/thousands.js';
import { wasteChart } from './chart.js';
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

export interface DiffMarkdownOptions {
  /** Characters the comment may take (default MARKDOWN_LIMIT, under GitHub's 65,536). */
  limit?: number;
  title?: string;
  /** Items each list shows before any cut for length (default 50; review 20). */
  listLimit?: number;
  /** Where the whole diff is when the comment is cut (default the CLI's JSON output). */
  seeAlso?: string;
  /**
   * A URL for a trace file named in a finding, at `line` when given (the Action links the file at
   * the head commit, so only new findings pass their line: a resolved one's is base's).
   */
  fileUrl?: (file: string, line?: number) => string | undefined;
}

const safe = (s: string, max?: number) => escapeMarkdown(redact(s), max);
const code = (s: string) => inlineCode(redact(s));

/** A list the length limit may cut: its title always stays, its items from the end. */
interface ListBlock {
  title: string[];
  head: string[];
  items: string[];
  cap: number;
  more: (n: number) => string;
  foot: string[];
}
type Block = string[] | ListBlock;

const isList = (b: Block): b is ListBlock => !Array.isArray(b);

function renderBlocks(blocks: readonly Block[]): string {
  const out: string[] = [];
  for (const b of blocks) {
    if (!isList(b)) {
      out.push(...b);
      continue;
    }
    out.push(...b.title);
    const shown = b.items.slice(0, b.cap);
    if (shown.length > 0) out.push(...b.head, ...shown);
    if (b.items.length > shown.length) out.push('', `_… ${b.more(b.items.length - shown.length)}_`);
    out.push(...b.foot);
  }
  return out.join('\n') + '\n';
}

/** Halves the cap of the list that takes the most characters until the text fits. */
function fit(blocks: Block[], limit: number, seeAlso: string): string {
  let text = renderBlocks(blocks);
  while (text.length > limit) {
    let longest: ListBlock | undefined;
    let longestLength = 0;
    for (const b of blocks) {
      if (!isList(b) || b.cap === 0) continue;
      const length = b.items.slice(0, b.cap).reduce((n, s) => n + s.length + 1, 0);
      if (length > longestLength) {
        longest = b;
        longestLength = length;
      }
    }
    if (!longest) {
      const note = `\n\n_…cut to ${fmtInt(limit)} characters; for the rest, see ${seeAlso}._\n`;
      return text.slice(0, limit - note.length) + note;
    }
    longest.cap = Math.floor(Math.min(longest.cap, longest.items.length) / 2);
    text = renderBlocks(blocks);
  }
  return text;
}

function fileText(file: string, line: number | undefined, fileUrl: DiffMarkdownOptions['fileUrl']): string {
  const url = fileUrl?.(file, line);
  // The URL is built from a path, so only ")" and spaces could end the link early: encoded.
  return url
    ? `[${safe(file, 120)}](${url.replace(/[() ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)})`
    : safe(file, 120);
}

function signalLine(
  s: DiffSignal,
  side: 'new' | 'resolved',
  fileUrl: DiffMarkdownOptions['fileUrl'],
): string {
  const line = side === 'new' ? s.line : undefined;
  const where =
    s.test !== undefined
      ? safe(s.test, 160)
      : `${safe(s.traceId, 80)}${s.file ? ` (${fileText(s.file, line, fileUrl)})` : ''}`;
  return (
    `- ${code(s.detector)} **${s.severity}** ${where}: ${safe(s.message, 200)}` +
    (s.wasteUsd ? ` — ${formatUsd(s.wasteUsd)}` : '')
  );
}

function noiseRow(name: string, n: Noise, usd: boolean): string {
  const rel = relativeText(n);
  return `| ${name} | ${perTraceText(n.base, usd)} | ${perTraceText(n.head, usd)} | ${usd ? signedUsd(n.delta) : `${n.delta > 0 ? '+' : ''}${Math.round(n.delta * 1000) / 1000}`}${rel ? ` (${rel})` : ''} | ${intervalText(n, usd)} | ${n.label === 'up' ? '🔺 up' : n.label === 'down' ? '🔻 down' : safe(n.label)} |`;
}

export function renderDiffMarkdown(diff: ReportDiff, options: DiffMarkdownOptions = {}): string {
  const limit = options.limit ?? MARKDOWN_LIMIT;
  const cap = options.listLimit ?? 50;
  const { totals, noise } = diff;
  const blocks: Block[] = [];
  const fixed = (...lines: string[]) => blocks.push(lines);

  fixed(
    `### ${options.title ?? 'tracejury diff'} ${diff.gate.passed ? '✅ no regression' : '❌ regression'}`,
    '',
    `Waste **${formatUsd(totals.wasteUsd.base)} → ${formatUsd(totals.wasteUsd.head)}** (${signedUsd(totals.wasteUsd.delta)}${relativeText(totals.wasteUsd) ? `, ${relativeText(totals.wasteUsd)}` : ''})` +
      ` · per 100 traces ${formatUsd(totals.wastePer100Traces.base)} → ${formatUsd(totals.wastePer100Traces.head)}` +
      ` · waste per trace **${safe(noise.wastePerTrace.label)}**`,
    '',
    `Traces ${countChange(totals.traces)} · cost ${usdChange(totals.costUsd)} · findings ${countChange(totals.findings)} · ` +
      `${fmtInt(diff.signals.new.length)} new, ${fmtInt(diff.signals.resolved.length)} resolved, ${fmtInt(diff.signals.persisting)} persisting`,
  );
  if (!diff.gate.passed) fixed('', ...diff.gate.reasons.map((r) => `- ${safe(r, 500)}`));
  for (const n of diff.notes) fixed('', `> ${safe(n, 500)}`);

  const noiseRows = Object.entries(noise.findingsPerTrace).map(([d, n]) =>
    noiseRow(`${code(d)} findings per trace`, n, false),
  );
  blocks.push({
    title: [
      '',
      `#### Real or noise? (${Math.round(noise.confidence * 100)}% bootstrap interval of the change per trace, ${fmtInt(noise.resamples)} resamples)`,
      '',
      '| per trace | base | head | change | 95% interval | |',
      '|---|---:|---:|---:|---:|---|',
      noiseRow('waste', noise.wastePerTrace, true),
      noiseRow('cost', noise.costPerTrace, true),
    ],
    head: [],
    items: noiseRows,
    cap,
    more: (n) => `${fmtInt(n)} more detectors' rates not shown`,
    foot: [],
  });

  if (diff.detectors.length > 0) {
    blocks.push({
      title: ['', '#### Waste by detector'],
      head: ['', '| detector | findings | waste base | waste head | change |', '|---|---:|---:|---:|---:|'],
      items: diff.detectors.map(
        (d) =>
          `| ${code(d.detector)} | ${fmtInt(d.findings.base)} → ${fmtInt(d.findings.head)} (${signedInt(d.findings.delta)}) | ${formatUsd(d.wasteUsd.base)} | ${formatUsd(d.wasteUsd.head)} | ${signedUsd(d.wasteUsd.delta)}${relativeText(d.wasteUsd) ? ` (${relativeText(d.wasteUsd)})` : ''} |`,
      ),
      cap,
      more: (n) => `${fmtInt(n)} more detectors not shown`,
      foot: [],
    });
    const chart = wasteChart(diff.detectors);
    if (chart.length > 0) fixed('', ...chart);
  }

  blocks.push({
    title: ['', `#### New findings (${fmtInt(diff.signals.new.length)})`],
    head: [''],
    items: diff.signals.new.map((s) => signalLine(s, 'new', options.fileUrl)),
    cap,
    more: (n) => `${fmtInt(n)} more new signals not shown`,
    foot: diff.signals.new.length === 0 ? ['', 'None.'] : [],
  });
  blocks.push({
    title: ['', `#### Resolved findings (${fmtInt(diff.signals.resolved.length)})`],
    head: [''],
    items: diff.signals.resolved.map((s) => signalLine(s, 'resolved', options.fileUrl)),
    cap,
    more: (n) => `${fmtInt(n)} more resolved signals not shown`,
    foot: diff.signals.resolved.length === 0 ? ['', 'None.'] : [],
  });

  if (diff.sessions.length > 0) {
    const score = (x: number | null) => (x === null ? '–' : x.toFixed(3));
    blocks.push({
      title: ['', '#### Session scores'],
      head: ['', '| session | metric | base | head | change |', '|---|---|---:|---:|---:|'],
      items: diff.sessions.map(
        (s) =>
          `| ${s.test !== undefined ? safe(s.test, 120) : safe(s.sessionId, 80)} | ${s.metric} | ${score(s.base)} | ${score(s.head)} | ${s.delta === null ? '–' : `${s.delta > 0 ? '+' : ''}${s.delta.toFixed(3)}`}${s.headPassed === false ? ' ❌' : ''} |`,
      ),
      cap,
      more: (n) => `${fmtInt(n)} more session scores not shown`,
      foot: [],
    });
  }

  const v = diff.verdicts;
  if (v.base.total > 0 || v.head.total > 0) {
    const r = (x: number | null) => (x === null ? '–' : x.toFixed(2));
    fixed(
      '',
      `**Verdicts**: pass rate ${r(v.base.rate)} → ${r(v.head.rate)} (${fmtInt(v.base.passed)}/${fmtInt(v.base.total)} → ${fmtInt(v.head.passed)}/${fmtInt(v.head.total)})` +
        (v.noise ? ` · ${safe(v.noise.label)}` : ''),
    );
  }

  if (diff.review.length > 0) {
    blocks.push({
      title: ['', `<details><summary>For review in head (${fmtInt(diff.review.length)})</summary>`],
      head: [''],
      items: diff.review.map(
        (r) =>
          `- ${r.detector ? `${code(r.detector)} ` : ''}${r.shadow ? '_(shadow)_ ' : ''}${safe(r.traceId, 80)}${r.file ? ` (${safe(r.file, 120)})` : ''}: ${safe(r.reason, 200)}`,
      ),
      cap: options.listLimit ?? 20,
      more: (n) => `${fmtInt(n)} more review cases not shown`,
      foot: ['', '</details>'],
    });
  }

  fixed(
    '',
    `Judge spend ${usdChange(totals.judgeUsd)} · ${plural(diff.head.traces, 'trace')} in head, ${plural(diff.base.traces, 'trace')} in base`,
  );
  return fit(blocks, limit, options.seeAlso ?? 'the JSON output (--format json)');
}

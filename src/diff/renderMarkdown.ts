/**
 * The diff as markdown: what the GitHub Action posts as its sticky PR comment. Every line is built
 * with `safeMd` (redact/markdown.ts), so everything that came from a report (and so maybe from a trace)
 * is redacted and escaped; detector ids go in code spans only when they are plain identifiers. The comment stays under GitHub's limit: the longest
 * lists are cut first, each saying how much it left out.
 */
import { cutMarkdown, joinMd, safeMd, mdCode, mdLink, mdText, type Markdown } from '../redact/markdown.js';
import { cutNote, MARKDOWN_LIMIT } from '../report/renderMarkdown.js';
import { formatUsd } from '../report/summarise.js';
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
  /** Where the whole diff is when the comment is cut (default the CLI's JSON output); a string is shown as text. */
  seeAlso?: string | Markdown;
  /**
   * A URL for a trace file named in a finding, at `line` when given (the Action links the file at
   * the head commit, so only new findings pass their line: a resolved one's is base's).
   */
  fileUrl?: (file: string, line?: number) => string | undefined;
}

const blank = safeMd``;

/** A list the length limit may cut: its title always stays, its items from the end. */
interface ListBlock {
  title: Markdown[];
  head: Markdown[];
  items: Markdown[];
  cap: number;
  more: (n: number) => Markdown;
  foot: Markdown[];
}
type Block = Markdown[] | ListBlock;

const isList = (b: Block): b is ListBlock => !Array.isArray(b);

function renderBlocks(blocks: readonly Block[]): Markdown {
  const out: Markdown[] = [];
  for (const b of blocks) {
    if (!isList(b)) {
      out.push(...b);
      continue;
    }
    out.push(...b.title);
    const shown = b.items.slice(0, b.cap);
    if (shown.length > 0) out.push(...b.head, ...shown);
    if (b.items.length > shown.length) out.push(blank, safeMd`_… ${b.more(b.items.length - shown.length)}_`);
    out.push(...b.foot);
  }
  return safeMd`${joinMd(out)}\n`;
}

/** Halves the cap of the list that takes the most characters until the text fits. */
function fit(blocks: Block[], limit: number, seeAlso: string | Markdown): Markdown {
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
    if (!longest) return cutMarkdown(text, limit, cutNote(limit, seeAlso));
    longest.cap = Math.floor(Math.min(longest.cap, longest.items.length) / 2);
    text = renderBlocks(blocks);
  }
  return text;
}

function fileText(file: string, line: number | undefined, fileUrl: DiffMarkdownOptions['fileUrl']): Markdown {
  const url = fileUrl?.(file, line);
  return url ? mdLink(mdText(file, 120), url) : mdText(file, 120);
}

function signalLine(
  s: DiffSignal,
  side: 'new' | 'resolved',
  fileUrl: DiffMarkdownOptions['fileUrl'],
): Markdown {
  const line = side === 'new' ? s.line : undefined;
  const where =
    s.test !== undefined
      ? mdText(s.test, 160)
      : safeMd`${mdText(s.traceId, 80)}${s.file ? safeMd` (${fileText(s.file, line, fileUrl)})` : ''}`;
  return safeMd`- ${mdCode(s.detector)} **${s.severity}** ${where}: ${mdText(s.message, 200)}${s.wasteUsd ? safeMd` — ${formatUsd(s.wasteUsd)}` : ''}`;
}

function noiseRow(name: Markdown, n: Noise, usd: boolean): Markdown {
  const rel = relativeText(n);
  const change = usd ? signedUsd(n.delta) : `${n.delta > 0 ? '+' : ''}${Math.round(n.delta * 1000) / 1000}`;
  return safeMd`| ${name} | ${perTraceText(n.base, usd)} | ${perTraceText(n.head, usd)} | ${change}${rel ? safeMd` (${rel})` : ''} | ${intervalText(n, usd)} | ${n.label === 'up' ? '🔺 up' : n.label === 'down' ? '🔻 down' : n.label} |`;
}

export function renderDiffMarkdown(diff: ReportDiff, options: DiffMarkdownOptions = {}): string {
  return diffMarkdown(diff, options).source;
}

/** The diff as markdown (what renderDiffMarkdown returns as a string), for renderers that embed it. */
export function diffMarkdown(diff: ReportDiff, options: DiffMarkdownOptions = {}): Markdown {
  const limit = options.limit ?? MARKDOWN_LIMIT;
  const cap = options.listLimit ?? 50;
  const { totals, noise } = diff;
  const blocks: Block[] = [];
  const fixed = (...lines: Markdown[]) => blocks.push(lines);

  const wasteRel = relativeText(totals.wasteUsd);
  fixed(
    safeMd`### ${options.title ?? 'tracejury diff'} ${
      diff.gate.passed ? safeMd`✅ no regression` : safeMd`❌ regression`
    }`,
    blank,
    safeMd`Waste **${formatUsd(totals.wasteUsd.base)} → ${formatUsd(totals.wasteUsd.head)}** (${signedUsd(totals.wasteUsd.delta)}${wasteRel ? safeMd`, ${wasteRel}` : ''}) · per 100 traces ${formatUsd(totals.wastePer100Traces.base)} → ${formatUsd(totals.wastePer100Traces.head)} · waste per trace **${noise.wastePerTrace.label}**`,
    blank,
    safeMd`Traces ${countChange(totals.traces)} · cost ${usdChange(totals.costUsd)} · findings ${countChange(totals.findings)} · ${fmtInt(diff.signals.new.length)} new, ${fmtInt(diff.signals.resolved.length)} resolved, ${fmtInt(diff.signals.persisting)} persisting`,
  );
  if (!diff.gate.passed) fixed(blank, ...diff.gate.reasons.map((r) => safeMd`- ${mdText(r, 500)}`));
  for (const n of diff.notes) fixed(blank, safeMd`> ${mdText(n, 500)}`);

  const noiseRows = Object.entries(noise.findingsPerTrace).map(([d, n]) =>
    noiseRow(safeMd`${mdCode(d)} findings per trace`, n, false),
  );
  blocks.push({
    title: [
      blank,
      safeMd`#### Real or noise? (${Math.round(noise.confidence * 100)}% bootstrap interval of the change per trace, ${fmtInt(noise.resamples)} resamples)`,
      blank,
      safeMd`| per trace | base | head | change | 95% interval | |`,
      safeMd`|---|---:|---:|---:|---:|---|`,
      noiseRow(safeMd`waste`, noise.wastePerTrace, true),
      noiseRow(safeMd`cost`, noise.costPerTrace, true),
    ],
    head: [],
    items: noiseRows,
    cap,
    more: (n) => safeMd`${fmtInt(n)} more detectors' rates not shown`,
    foot: [],
  });

  if (diff.detectors.length > 0) {
    blocks.push({
      title: [blank, safeMd`#### Waste by detector`],
      head: [
        blank,
        safeMd`| detector | findings | waste base | waste head | change |`,
        safeMd`|---|---:|---:|---:|---:|`,
      ],
      items: diff.detectors.map((d) => {
        const rel = relativeText(d.wasteUsd);
        return safeMd`| ${mdCode(d.detector)} | ${fmtInt(d.findings.base)} → ${fmtInt(d.findings.head)} (${signedInt(d.findings.delta)}) | ${formatUsd(d.wasteUsd.base)} | ${formatUsd(d.wasteUsd.head)} | ${signedUsd(d.wasteUsd.delta)}${rel ? safeMd` (${rel})` : ''} |`;
      }),
      cap,
      more: (n) => safeMd`${fmtInt(n)} more detectors not shown`,
      foot: [],
    });
    const chart = wasteChart(diff.detectors);
    if (chart.length > 0) fixed(blank, ...chart);
  }

  blocks.push({
    title: [blank, safeMd`#### New findings (${fmtInt(diff.signals.new.length)})`],
    head: [blank],
    items: diff.signals.new.map((s) => signalLine(s, 'new', options.fileUrl)),
    cap,
    more: (n) => safeMd`${fmtInt(n)} more new signals not shown`,
    foot: diff.signals.new.length === 0 ? [blank, safeMd`None.`] : [],
  });
  blocks.push({
    title: [blank, safeMd`#### Resolved findings (${fmtInt(diff.signals.resolved.length)})`],
    head: [blank],
    items: diff.signals.resolved.map((s) => signalLine(s, 'resolved', options.fileUrl)),
    cap,
    more: (n) => safeMd`${fmtInt(n)} more resolved signals not shown`,
    foot: diff.signals.resolved.length === 0 ? [blank, safeMd`None.`] : [],
  });

  if (diff.sessions.length > 0) {
    const score = (x: number | null) => (x === null ? '–' : x.toFixed(3));
    blocks.push({
      title: [blank, safeMd`#### Session scores`],
      head: [blank, safeMd`| session | metric | base | head | change |`, safeMd`|---|---|---:|---:|---:|`],
      items: diff.sessions.map(
        (s) =>
          safeMd`| ${s.test !== undefined ? mdText(s.test, 120) : mdText(s.sessionId, 80)} | ${s.metric} | ${score(s.base)} | ${score(s.head)} | ${s.delta === null ? '–' : `${s.delta > 0 ? '+' : ''}${s.delta.toFixed(3)}`}${s.headPassed === false ? safeMd` ❌` : ''} |`,
      ),
      cap,
      more: (n) => safeMd`${fmtInt(n)} more session scores not shown`,
      foot: [],
    });
  }

  const v = diff.verdicts;
  if (v.base.total > 0 || v.head.total > 0) {
    const r = (x: number | null) => (x === null ? '–' : x.toFixed(2));
    fixed(
      blank,
      safeMd`**Verdicts**: pass rate ${r(v.base.rate)} → ${r(v.head.rate)} (${fmtInt(v.base.passed)}/${fmtInt(v.base.total)} → ${fmtInt(v.head.passed)}/${fmtInt(v.head.total)})${v.noise ? safeMd` · ${v.noise.label}` : ''}`,
    );
  }

  if (diff.review.length > 0) {
    blocks.push({
      title: [blank, safeMd`<details><summary>For review in head (${fmtInt(diff.review.length)})</summary>`],
      head: [blank],
      items: diff.review.map(
        (r) =>
          safeMd`- ${r.detector ? safeMd`${mdCode(r.detector)} ` : ''}${
            r.shadow ? safeMd`_(shadow)_ ` : ''
          }${mdText(r.traceId, 80)}${r.file ? safeMd` (${mdText(r.file, 120)})` : ''}: ${mdText(r.reason, 200)}`,
      ),
      cap: options.listLimit ?? 20,
      more: (n) => safeMd`${fmtInt(n)} more review cases not shown`,
      foot: [blank, safeMd`</details>`],
    });
  }

  fixed(
    blank,
    safeMd`Judge spend ${usdChange(totals.judgeUsd)} · ${plural(diff.head.traces, 'trace')} in head, ${plural(diff.base.traces, 'trace')} in base`,
  );
  return fit(blocks, limit, options.seeAlso ?? safeMd`the JSON output (--format json)`);
}

/**
 * The diff as markdown: what the GitHub Action posts as its sticky PR comment, reviewer first.
 *
 * The first screen, before any collapsed block, is what a reviewer reads in ten seconds (at most
 * FIRST_SCREEN_LINES lines): the verdict naming the rule that decided it, cost, waste and findings
 * with a word for noise, the first new findings at the gate's severity or worse (each linked to its
 * trace in the HTML report when there is one), and the caller's lead lines (the Action's: where the
 * HTML report is, what the baseline was). Everything else sits in `<details>` blocks, listing only
 * what changed and counting what did not.
 *
 * Every line is built with `safeMd` (redact/markdown.ts), so everything that came from a report (and
 * so maybe from a trace) is redacted and escaped. A `<summary>` is raw HTML, where markdown escapes
 * show as written, so it holds the renderer's own words and numbers only. The comment stays under
 * GitHub's limit: the longest lists are cut first, each saying how much it left out; the first
 * screen is never cut.
 */
import { attributionDiffText } from './attribution.js';
import { cutMarkdown, joinMd, safeMd, mdCode, mdLink, mdText, type Markdown } from '../redact/markdown.js';
import { redact } from '../redact/redact.js';
import { htmlReportAnchor } from '../report/html/anchor.js';
import { cutNote, MARKDOWN_LIMIT } from '../report/renderMarkdown.js';
import { formatUsd } from '../report/summarise.js';
import { severityRank } from '../detect/signal.js';
import { fmtInt, plural } from '../util/thousands.js';
import { wasteBars, type WasteBar } from './chart.js';
import { signedInt, usdChange } from './format.js';
import { headlineQuantity, metricsLine, readingWord, verdictHeading } from './headline.js';
import type { DiffSignal } from './match.js';
import { commonPassHatK, type FlippedTask, type SuccessRate } from './outcomes.js';
import type { Quantity } from './quantity.js';
import { minDetectableText, percentText, quantityRow } from './quantityText.js';
import type { ReportDiff } from './schema.js';
import type { DetectorDiff } from './totals.js';

/** The first screen's budget: lines before the first `<details>` (the Action's marker included). */
export const FIRST_SCREEN_LINES = 15;
/** …and characters (links included): past it, fewer findings are named. */
export const FIRST_SCREEN_CHARS = 4_000;
/** A link longer than this (a trace id or a path of a thousand characters) is left as text. */
const MAX_URL = 600;
/** New findings the first screen names; the rest are in the collapsed list. */
export const FIRST_SCREEN_FINDINGS = 5;
/** A finding's message on the first screen is cut to this. */
const FIRST_SCREEN_MESSAGE = 140;

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
  /**
   * Where head's HTML report is (the run's artifact): each new finding links to its trace there,
   * at `htmlReportAnchor` (the viewer opens that trace's timeline).
   */
  htmlReportUrl?: string;
  /** Lines that end the first screen, each a paragraph (the Action: the HTML report, the baseline). */
  lead?: readonly Markdown[];
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

/** `<details>` opening lines: the summary is raw HTML, so only the renderer's own words go in it. */
const open = (summary: string): Markdown[] => [blank, safeMd`<details><summary>${summary}</summary>`, blank];
const close: Markdown[] = [blank, safeMd`</details>`];

/** `label` linked to `url`, unless there is no URL or it is too long to be worth its characters. */
const linkOrText = (label: Markdown, url: string | undefined) =>
  url && url.length <= MAX_URL ? mdLink(label, url) : label;

/**
 * The trace file, linked at the head commit (at the trace's line for a new finding). Short, on the
 * first screen: the file's name and line (`llm-calls.jsonl:4`); the link has the whole path.
 */
function fileText(
  file: string,
  line: number | undefined,
  fileUrl: DiffMarkdownOptions['fileUrl'],
  short: boolean,
): Markdown {
  const url = fileUrl?.(file, line);
  const label = short
    ? mdText(`${file.slice(file.lastIndexOf('/') + 1)}${line !== undefined ? `:${line}` : ''}`, 60)
    : mdText(file, 120);
  return linkOrText(label, url);
}

/**
 * The finding's trace (or test), linked to its timeline in the HTML report when there is one. The
 * anchor's values are redacted as everything posted is (the report embeds redacted traces too).
 */
function whereText(
  s: DiffSignal,
  side: 'new' | 'resolved',
  options: DiffMarkdownOptions,
  short: boolean,
): Markdown {
  const label = s.test !== undefined ? mdText(s.test, short ? 80 : 160) : mdText(s.traceId, 80);
  const linked =
    side === 'new' && options.htmlReportUrl
      ? linkOrText(
          label,
          options.htmlReportUrl +
            htmlReportAnchor({
              traceId: redact(s.traceId),
              ...(s.file !== undefined ? { file: redact(s.file) } : {}),
              detector: s.detector,
            }),
        )
      : label;
  const line = side === 'new' ? s.line : undefined;
  if (s.file === undefined || s.test !== undefined) return linked;
  const file = fileText(s.file, line, options.fileUrl, short);
  return short ? safeMd`${linked} · ${file}` : safeMd`${linked} (${file})`;
}

/** A finding, one line; `short` on the first screen (a file's name, a message cut sooner). */
function signalLine(
  s: DiffSignal,
  side: 'new' | 'resolved',
  options: DiffMarkdownOptions,
  short = false,
): Markdown {
  return safeMd`- ${mdCode(s.detector)} **${s.severity}** ${whereText(s, side, options, short)}: ${mdText(s.message, short ? FIRST_SCREEN_MESSAGE : 200)}`;
}

function quantityTableRow(diff: ReportDiff, q: Quantity): Markdown {
  const r = quantityRow(q, diff.regression);
  const verdict = r.tone === 'failed' ? safeMd`**${r.verdict}**` : safeMd`${r.verdict}`;
  return safeMd`| ${mdText(r.name, 120)} | ${r.base} | ${r.head} | ${r.change} | ${r.interval} | ${mdText(r.test, 200)} | ${r.p} | ${verdict} |`;
}

const rateText = (r: SuccessRate | null) =>
  r === null
    ? '–'
    : `${percentText(r.rate)} (${fmtInt(r.succeeded)}/${fmtInt(r.runs)}; 95 % ${percentText(r.interval[0])}–${percentText(r.interval[1])})`;

/** A flipped task, linked to head's first trace of it in the HTML report when there is one. */
function flippedLine(t: FlippedTask, options: DiffMarkdownOptions): Markdown {
  const first = t.traces[0];
  const label = mdText(t.task, 160);
  const linked =
    first && options.htmlReportUrl
      ? linkOrText(
          label,
          options.htmlReportUrl + htmlReportAnchor({ traceId: redact(first.id), file: redact(first.file) }),
        )
      : label;
  return safeMd`- ${linked}: ${fmtInt(t.base.passed)}/${fmtInt(t.base.runs)} → ${fmtInt(t.head.passed)}/${fmtInt(t.head.runs)} passed`;
}

const changed = (d: DetectorDiff) => d.findings.delta !== 0 || d.wasteUsd.delta !== 0;

function detectorRow(d: DetectorDiff, share: Quantity | undefined, bar: WasteBar | undefined): Markdown {
  const waste = d.wasteUsd.delta === 0 ? formatUsd(d.wasteUsd.head) : usdChange(d.wasteUsd);
  return safeMd`| ${mdCode(d.detector)} | ${fmtInt(d.findings.base)} → ${fmtInt(d.findings.head)} (${signedInt(d.findings.delta)}) | ${share ? readingWord(share) : '–'} | ${waste} |${bar ? safeMd` ${bar.down} | ${bar.up} |` : ''}`;
}

export function renderDiffMarkdown(diff: ReportDiff, options: DiffMarkdownOptions = {}): string {
  return diffMarkdown(diff, options).source;
}

/**
 * The first screen: verdict, numbers, the first new findings at the gate's severity (as many of
 * FIRST_SCREEN_FINDINGS as FIRST_SCREEN_CHARS leaves room for), the lead.
 */
function firstScreen(diff: ReportDiff, options: DiffMarkdownOptions): Markdown[] {
  const top: Markdown[] = [verdictHeading(diff, options.title ?? 'tracejury diff'), blank, metricsLine(diff)];
  if (diff.attribution) top.push(blank, mdText(attributionDiffText(diff.attribution), 600));
  const lead = (options.lead ?? []).flatMap((line) => [blank, line]);
  const minSeverity = diff.regression.minSeverity;
  const worst = diff.signals.new.filter((s) => severityRank(s.severity) >= severityRank(minSeverity));
  const items = worst.slice(0, FIRST_SCREEN_FINDINGS).map((s) => signalLine(s, 'new', options, true));
  const length = (lines: Markdown[]) => lines.reduce((n, l) => n + l.length + 1, 0);
  let shown = items.length;
  while (shown > 1 && length([...top, ...items.slice(0, shown), ...lead]) > FIRST_SCREEN_CHARS) shown--;
  const list =
    shown === 0
      ? []
      : [
          blank,
          safeMd`**New at ${minSeverity} or worse**${
            worst.length > shown ? ` (${fmtInt(shown)} of ${fmtInt(worst.length)})` : ''
          }:`,
          ...items.slice(0, shown),
        ];
  return [...top, ...list, ...lead];
}

/** The diff as markdown (what renderDiffMarkdown returns as a string), for renderers that embed it. */
export function diffMarkdown(diff: ReportDiff, options: DiffMarkdownOptions = {}): Markdown {
  const limit = options.limit ?? MARKDOWN_LIMIT;
  const cap = options.listLimit ?? 50;
  const { totals, signals } = diff;
  const blocks: Block[] = [firstScreen(diff, options)];
  const unchanged: string[] = [];

  // New and resolved findings, each list cut for length before anything else is.
  if (signals.new.length > 0 || signals.resolved.length > 0) {
    const lists: [string, DiffSignal[], 'new' | 'resolved'][] = [
      ['New findings', signals.new, 'new'],
      ['Resolved findings', signals.resolved, 'resolved'],
    ];
    const shownLists = lists.filter(([, list]) => list.length > 0);
    shownLists.forEach(([name, list, side], i) =>
      blocks.push({
        title: [
          ...(i === 0
            ? open(
                `Findings: ${fmtInt(signals.new.length)} new, ${fmtInt(signals.resolved.length)} resolved, ${fmtInt(signals.persisting)} persisting`,
              )
            : [blank]),
          safeMd`#### ${name} (${fmtInt(list.length)})`,
        ],
        head: [blank],
        items: list.map((s) => signalLine(s, side, options)),
        cap,
        more: (n) => safeMd`${fmtInt(n)} more ${side} signals not shown`,
        foot: i === shownLists.length - 1 ? close : [],
      }),
    );
  }

  // Detectors whose findings or waste changed; the rest counted.
  const moved = diff.detectors.filter(changed);
  const still = diff.detectors.length - moved.length;
  if (moved.length > 0) {
    const chart = wasteBars(moved.map((d) => d.wasteUsd.delta));
    blocks.push({
      title: open(
        `Detectors: ${fmtInt(moved.length)} changed${still > 0 ? `, ${fmtInt(still)} unchanged` : ''}`,
      ),
      head: chart
        ? [
            safeMd`| detector | findings | share of runs | waste | waste down | waste up |`,
            safeMd`|---|---:|---|---:|---:|:---|`,
          ]
        : [safeMd`| detector | findings | share of runs | waste |`, safeMd`|---|---:|---|---:|`],
      items: moved.map((d, i) =>
        detectorRow(
          d,
          diff.quantities.find((q) => q.id === d.detector),
          chart?.bars[i],
        ),
      ),
      cap,
      more: (n) => safeMd`${fmtInt(n)} more changed detectors not shown`,
      foot: [
        ...(chart ? [blank, safeMd`Bars: the change in waste, to one scale (█ = ${chart.unit}).`] : []),
        ...(still > 0 ? [blank, safeMd`${plural(still, 'detector')} with findings unchanged.`] : []),
        ...close,
      ],
    });
  } else if (still > 0) unchanged.push(plural(still, 'detector'));

  // Every quantity with its test and interval (what the words above rest on); the notes.
  const compared = diff.quantities.filter((q) => q.status === 'compared');
  const failed = diff.quantities.filter((q) => q.decision === 'failed').length;
  const headline = headlineQuantity(diff);
  const detectable =
    headline && headline.reading === 'within noise' ? minDetectableText(headline) : undefined;
  blocks.push([
    ...open(
      `Quantities: ${fmtInt(compared.length)} compared${failed > 0 ? `, ${fmtInt(failed)} failed the gate` : ', none failed the gate'}`,
    ),
    safeMd`| quantity | base | head | change | 95 % interval | test | p (one-sided, toward worse) | |`,
    safeMd`|---|---:|---:|---:|---:|---|---:|---|`,
    ...diff.quantities.map((q) => quantityTableRow(diff, q)),
    blank,
    safeMd`Gated: ${diff.regression.gate.join(', ')}, at α ${diff.gate.alpha} across them (Holm's correction; success takes half of α first). A change smaller than its minimum effect never fails, and an improvement never does.${detectable ? ` ${detectable[0]!.toUpperCase()}${detectable.slice(1)}.` : ''} ${plural(diff.base.traces, 'trace')} in base, ${plural(diff.head.traces, 'trace')} in head · judge spend ${usdChange(totals.judgeUsd)}`,
    ...diff.notes.flatMap((n) => [blank, safeMd`> ${mdText(n, 500)}`]),
    ...close,
  ]);

  // Outcomes: success per agent, and the tasks that flipped (each linked to head's trace).
  const o = diff.outcomes;
  if (o && (o.byAgent.length > 0 || o.flipped.toFailCount + o.flipped.toPassCount > 0 || o.passHatK)) {
    const agents =
      o.byAgent.length > 0
        ? [
            safeMd`| agent | base | head |`,
            safeMd`|---|---:|---:|`,
            ...o.byAgent.map(
              (a) => safeMd`| ${mdText(a.agent, 120)} | ${rateText(a.base)} | ${rateText(a.head)} |`,
            ),
            blank,
          ]
        : [];
    const lists: [string, FlippedTask[], number][] = [
      ['Pass → fail', o.flipped.toFail, o.flipped.toFailCount],
      ['Fail → pass', o.flipped.toPass, o.flipped.toPassCount],
    ];
    const shown = lists.filter(([, , n]) => n > 0);
    const pct = (r: SuccessRate | null) => (r === null ? '–' : percentText(r.rate));
    const pk = commonPassHatK(o);
    blocks.push([
      ...open(
        `Outcomes: success ${pct(o.base)} → ${pct(o.head)}${pk ? `, pass^${pk.k} ${pk.base.toFixed(2)} → ${pk.head.toFixed(2)}` : ''}; ${fmtInt(o.flipped.toFailCount)} tasks pass → fail, ${fmtInt(o.flipped.toPassCount)} fail → pass`,
      ),
      ...agents,
      ...(shown.length === 0 ? close : []),
    ]);
    shown.forEach(([name, list, count], i) =>
      blocks.push({
        title: [safeMd`#### ${name} (${fmtInt(count)})`],
        head: [blank],
        items: list.map((t) => flippedLine(t, options)),
        cap,
        more: (n) => safeMd`${fmtInt(n + count - list.length)} more tasks not shown`,
        foot: i === shown.length - 1 ? close : [],
      }),
    );
  }

  // Session scores that moved (or appeared, or disappeared); the rest counted.
  const sessionsMoved = diff.sessions.filter((s) => s.delta !== 0 || s.basePassed !== s.headPassed);
  const sessionsStill = diff.sessions.length - sessionsMoved.length;
  if (sessionsMoved.length > 0) {
    const score = (x: number | null) => (x === null ? '–' : x.toFixed(3));
    blocks.push({
      title: open(
        `Session scores: ${fmtInt(sessionsMoved.length)} changed${sessionsStill > 0 ? `, ${fmtInt(sessionsStill)} unchanged` : ''}`,
      ),
      head: [safeMd`| session | metric | base | head | change |`, safeMd`|---|---|---:|---:|---:|`],
      items: sessionsMoved.map(
        (s) =>
          safeMd`| ${s.test !== undefined ? mdText(s.test, 120) : mdText(s.sessionId, 80)} | ${s.metric} | ${score(s.base)} | ${score(s.head)} | ${s.delta === null ? '–' : `${s.delta > 0 ? '+' : ''}${s.delta.toFixed(3)}`}${s.headPassed === false ? safeMd` ❌` : ''} |`,
      ),
      cap,
      more: (n) => safeMd`${fmtInt(n)} more changed session scores not shown`,
      foot: close,
    });
  } else if (sessionsStill > 0) unchanged.push(plural(sessionsStill, 'session score'));

  if (diff.review.length > 0) {
    blocks.push({
      title: open(`For review in head: ${fmtInt(diff.review.length)}`),
      head: [],
      items: diff.review.map(
        (r) =>
          safeMd`- ${r.detector ? safeMd`${mdCode(r.detector)} ` : ''}${
            r.shadow ? safeMd`_(shadow)_ ` : ''
          }${mdText(r.traceId, 80)}${r.file ? safeMd` (${mdText(r.file, 120)})` : ''}: ${mdText(r.reason, 200)}`,
      ),
      cap: options.listLimit ?? 20,
      more: (n) => safeMd`${fmtInt(n)} more review cases not shown`,
      foot: close,
    });
  }

  if (unchanged.length > 0) blocks.push([blank, safeMd`Unchanged: ${unchanged.join(', ')}.`]);
  return fit(blocks, limit, options.seeAlso ?? safeMd`the JSON output (--format json)`);
}

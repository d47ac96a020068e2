/**
 * The diff as one self-contained HTML page (the report page's viewer and document): new, resolved
 * and persisting findings, the changes per trace with their noise intervals, and the timelines of
 * head's traces with new or persisting findings, re-read from the files head's report names.
 */
import { severityRank } from '../detect/signal.js';
import {
  collectTraces,
  budgetBytesOrDefault,
  type CollectedTraces,
  type CollectTracesOptions,
} from '../report/html/collectTraces.js';
import { htmlDocument } from '../report/html/document.js';
import { writePieces } from '../report/html/render.js';
import { detectorInfo, pageTraces } from '../report/html/reportPage.js';
import { traceRefsOfReport, type TraceRef } from '../report/html/traceRefs.js';
import type { Report } from '../report/schema.js';
import { formatUsd } from '../report/summarise.js';
import { traceLines } from '../report/traceLines.js';
import { fmtInt } from '../util/thousands.js';
import { countChange, intervalText, perTraceText, relativeText, signedUsd, usdChange } from './format.js';
import type { DiffPage, NoiseRow } from './htmlPageData.js';
import { persistingFindings, type DiffSignal } from './match.js';
import type { Noise } from './noise.js';
import type { ReportDiff } from './schema.js';

export interface DiffHtmlInput {
  diff: ReportDiff;
  /** The reports the diff was made from: with them the page lists persisting findings. */
  base?: Report | undefined;
  head?: Report | undefined;
  /** Head's traces, collected from their files (diffTraceRefs + collectTraces). */
  traces?: CollectedTraces | undefined;
  howToGetAll?: string | undefined;
}

function noiseRow(name: string, n: Noise, usd: boolean): NoiseRow {
  const rel = relativeText(n);
  const change = usd ? signedUsd(n.delta) : `${n.delta > 0 ? '+' : ''}${Math.round(n.delta * 1000) / 1000}`;
  return {
    name,
    base: perTraceText(n.base, usd),
    head: perTraceText(n.head, usd),
    change: change + (rel ? ` (${rel})` : ''),
    interval: intervalText(n, usd),
    label: n.label,
  };
}

const worstFirst = (a: DiffSignal, b: DiffSignal) =>
  severityRank(b.severity) - severityRank(a.severity) || (b.wasteUsd ?? 0) - (a.wasteUsd ?? 0);

/**
 * The head traces a diff page shows: those of new findings (first) and of persisting ones, by the
 * head report's own names for them (its summaries, or the traces a Vitest run saved).
 */
export function diffTraceRefs(
  diff: ReportDiff,
  head: Report,
  persisting: readonly DiffSignal[] = [],
): TraceRef[] {
  const named = traceRefsOfReport(head);
  const wanted = new Map<string, 0 | 1>();
  const want = (s: DiffSignal, p: 0 | 1) => {
    const key =
      s.test !== undefined
        ? `test\u0000${s.test}\u0000${s.traceId}`
        : `file\u0000${s.file ?? ''}\u0000${s.traceId}`;
    wanted.set(key, Math.min(wanted.get(key) ?? 1, p) as 0 | 1);
  };
  for (const s of diff.signals.new) want(s, 0);
  for (const s of persisting) want(s, 1);
  // A Vitest report's traces are its saved copies, named by test; an analysis's by file.
  const refs: TraceRef[] = [];
  for (const ref of named) {
    const keys = ref.tests
      ? ref.tests.map((test) => `test\u0000${test}\u0000${ref.id}`)
      : [`file\u0000${ref.file}\u0000${ref.id}`];
    const p = keys
      .map((k) => wanted.get(k))
      .reduce<0 | 1 | undefined>(
        (a, x) => (x === undefined ? a : a === undefined ? x : (Math.min(a, x) as 0 | 1)),
        undefined,
      );
    if (p !== undefined) refs.push({ ...ref, priority: p });
  }
  return refs;
}

const NO_TRACES: CollectedTraces = {
  traces: [],
  leftOut: { traces: 0, withFindings: 0, overBudget: 0, budgetBytes: null, unreadable: [], notFound: 0 },
};

export function diffPage(input: DiffHtmlInput): DiffPage {
  const { diff } = input;
  const persisting =
    input.base && input.head
      ? persistingFindings(input.base.signals, input.head.signals, traceLines(input.head)).sort(worstFirst)
      : [];
  const { totals, noise } = diff;
  const all = [...diff.signals.new, ...diff.signals.resolved, ...persisting];
  return {
    kind: 'diff',
    title: `tracejury diff — regression gate ${diff.gate.passed ? 'passed' : 'FAILED'}`,
    diff,
    persisting,
    lines: {
      waste: `${usdChange(totals.wasteUsd)}; per 100 traces ${formatUsd(totals.wastePer100Traces.base)} → ${formatUsd(totals.wastePer100Traces.head)}`,
      cost: usdChange(totals.costUsd),
      findings: `${countChange(totals.findings)}: ${fmtInt(diff.signals.new.length)} new, ${fmtInt(diff.signals.resolved.length)} resolved, ${fmtInt(diff.signals.persisting)} persisting`,
      judges: usdChange(totals.judgeUsd),
      method: `${Math.round(noise.confidence * 100)}% bootstrap interval of the change, ${fmtInt(noise.resamples)} resamples; no interval with fewer than ${fmtInt(noise.minTraces)} traces a side`,
    },
    noise: [
      noiseRow('waste', noise.wastePerTrace, true),
      noiseRow('cost', noise.costPerTrace, true),
      ...Object.entries(noise.findingsPerTrace).map(([d, n]) => noiseRow(`${d} findings`, n, false)),
    ],
    detectors: detectorInfo(all.map((s) => s.detector)),
    traces: pageTraces(input.traces ?? NO_TRACES, input.howToGetAll),
  };
}

/** The diff page, a piece at a time. */
export function diffHtmlPieces(input: DiffHtmlInput): Iterable<string> {
  const page = diffPage(input);
  return htmlDocument(page.title, page, input.traces?.traces ?? []);
}

/** The diff page as one string. */
export function renderDiffHtml(input: DiffHtmlInput): string {
  return [...diffHtmlPieces(input)].join('');
}

export interface WriteDiffHtmlOptions
  extends Omit<DiffHtmlInput, 'traces'>, Partial<Pick<CollectTracesOptions, 'pricer' | 'within'>> {
  /** The directory head's file names are relative to (default process.cwd()). */
  cwd?: string | undefined;
  /** Bytes of embedded trace JSON at most (default 25 MB); null for no limit. */
  budgetBytes?: number | null | undefined;
}

/**
 * Writes the diff page to `file`. With `head`, the traces of new and persisting findings are read
 * again from the files head's report names (relative to `cwd`; with `within`, only inside it).
 */
export async function writeDiffHtml(file: string, options: WriteDiffHtmlOptions): Promise<CollectedTraces> {
  const persisting =
    options.base && options.head ? persistingFindings(options.base.signals, options.head.signals) : [];
  const traces = options.head
    ? await collectTraces(diffTraceRefs(options.diff, options.head, persisting), {
        cwd: options.cwd ?? process.cwd(),
        budgetBytes: budgetBytesOrDefault(options.budgetBytes),
        within: options.within,
        pricer: options.pricer,
      })
    : NO_TRACES;
  writePieces(file, diffHtmlPieces({ ...options, traces }));
  return traces;
}

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
import { traceLines } from '../report/traceLines.js';
import { fmtInt } from '../util/thousands.js';
import { countChange, usdChange } from './format.js';
import { headlineQuantity, readingWord, verdictText } from './headline.js';
import type { DiffPage } from './htmlPageData.js';
import { persistingFindings, type DiffSignal } from './match.js';
import { minDetectableText, percentText, quantityRow } from './quantityText.js';
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
  const want = (s: Pick<DiffSignal, 'traceId' | 'file' | 'test'>, p: 0 | 1) => {
    const key =
      s.test !== undefined
        ? `test\u0000${s.test}\u0000${s.traceId}`
        : `file\u0000${s.file ?? ''}\u0000${s.traceId}`;
    wanted.set(key, Math.min(wanted.get(key) ?? 1, p) as 0 | 1);
  };
  for (const s of diff.signals.new) want(s, 0);
  for (const s of persisting) want(s, 1);
  // Head's runs of tasks whose outcome flipped, so the page opens them too.
  const flipped = [...(diff.outcomes?.flipped.toFail ?? []), ...(diff.outcomes?.flipped.toPass ?? [])];
  for (const t of flipped)
    for (const r of t.traces)
      want({ traceId: r.id, file: r.file, ...(r.test !== undefined ? { test: r.test } : {}) }, 1);
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
      ? persistingFindings(input.base, input.head, traceLines(input.head)).sort(worstFirst)
      : [];
  const { totals } = diff;
  const all = [...diff.signals.new, ...diff.signals.resolved, ...persisting];
  const money = (id: 'cost' | 'waste') => {
    const q = diff.quantities.find((x) => x.id === id);
    if (q?.status === 'unknown') return `unknown — ${q.why ?? ''}`;
    const d = id === 'cost' ? totals.costUsd : totals.wasteUsd;
    if (q?.status === 'invalid' || !Number.isFinite(d.base) || !Number.isFinite(d.head))
      return `cannot be judged — ${q?.why ?? 'not a finite number'}`;
    return `${usdChange(d)}${q?.status === 'compared' ? `; per run ${readingWord(q)}` : ''}`;
  };
  const o = diff.outcomes;
  const headline = headlineQuantity(diff);
  const detectable =
    headline && headline.reading === 'within noise' ? minDetectableText(headline) : undefined;
  return {
    kind: 'diff',
    title: `tracejury diff — regression gate ${diff.gate.passed ? 'passed' : 'FAILED'}`,
    diff,
    persisting,
    lines: {
      verdict: `${verdictText(diff).mark} ${verdictText(diff).text}`,
      success: o
        ? `${o.base ? percentText(o.base.rate) : '–'} → ${o.head ? percentText(o.head.rate) : '–'}, from ${o.source === 'tests' ? 'test attempts' : o.source === 'outcomes' ? 'recorded outcomes' : "the judges' verdicts"}`
        : undefined,
      waste: money('waste'),
      cost: money('cost'),
      findings: `${countChange(totals.findings)}: ${fmtInt(diff.signals.new.length)} new, ${fmtInt(diff.signals.resolved.length)} resolved, ${fmtInt(diff.signals.persisting)} persisting`,
      judges: usdChange(totals.judgeUsd),
      method: `One-sided tests toward worse (paired by task where both sides hold the same tasks), Holm's correction at α ${diff.gate.alpha} across the gated quantities (${diff.regression.gate.join(', ')}); 95 % intervals`,
      detectable,
    },
    quantities: diff.quantities.map((q) => quantityRow(q, diff.regression)),
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
  const persisting = options.base && options.head ? persistingFindings(options.base, options.head) : [];
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

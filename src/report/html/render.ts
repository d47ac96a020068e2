/**
 * The report as one self-contained HTML file: the viewer (report-ui/) with the report and the
 * traces worth looking at embedded. `renderHtmlReport` returns the page as a string for small
 * inputs; `writeHtmlReport` re-reads the traces from the files the report names, within a size
 * budget, and streams the page to a file.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Trace } from '../../trace/schema.js';
import type { Report } from '../schema.js';
import {
  collectTraceObjects,
  collectTraces,
  budgetBytesOrDefault,
  type CollectedTraces,
  type CollectTracesOptions,
} from './collectTraces.js';
import { htmlDocument } from './document.js';
import type { TracesLeftOut } from './pageData.js';
import { reportPage } from './reportPage.js';
import { traceRefsOfReport } from './traceRefs.js';

export interface HtmlReportInput {
  report: Report;
  /**
   * The traces to embed: the run's trace objects (matched to the report's summaries by id), or
   * traces already collected from their files (collectTraces). None: the page shows summaries only.
   */
  traces?: readonly Trace[] | CollectedTraces | undefined;
  /** Bytes of embedded trace JSON at most (default 25 MB); null for no limit. */
  budgetBytes?: number | null | undefined;
  /** What the page tells a reader to run to get the traces left out. */
  howToGetAll?: string | undefined;
}

function isCollected(traces: HtmlReportInput['traces']): traces is CollectedTraces {
  return traces !== undefined && !Array.isArray(traces);
}

const NONE: CollectedTraces = {
  traces: [],
  leftOut: { traces: 0, withFindings: 0, overBudget: 0, budgetBytes: null, unreadable: [], notFound: 0 },
};

/** The page, a piece at a time: each embedded trace is its own piece. */
export function htmlReportPieces(input: HtmlReportInput): Iterable<string> {
  const { report } = input;
  const budget = budgetBytesOrDefault(input.budgetBytes);
  const collected = isCollected(input.traces)
    ? input.traces
    : input.traces
      ? collectTraceObjects(report, input.traces, budget)
      : {
          ...NONE,
          leftOut: { ...NONE.leftOut, traces: report.traces.length, notFound: report.traces.length },
        };
  const page = reportPage(report, collected, input.howToGetAll);
  return htmlDocument(page.title, page, collected.traces);
}

/** The page as one string: for small inputs (a test's report, a handful of traces). */
export function renderHtmlReport(input: HtmlReportInput): string {
  return [...htmlReportPieces(input)].join('');
}

/** Writes the pieces to a new file, one at a time, creating its directory. */
export function writePieces(file: string, pieces: Iterable<string>): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, 'w');
  try {
    for (const piece of pieces) writeSync(fd, piece);
  } finally {
    closeSync(fd);
  }
}

export interface WriteHtmlReportOptions
  extends
    Omit<HtmlReportInput, 'report' | 'traces'>,
    Partial<Pick<CollectTracesOptions, 'inputFormat' | 'agent' | 'pricer' | 'within'>> {
  report: Report;
  /** Trace objects to embed; otherwise the traces are re-read from the files the report names. */
  traces?: readonly Trace[] | undefined;
  /** The directory the report's file names are relative to (default process.cwd()). */
  cwd?: string | undefined;
}

export interface WrittenHtmlReport {
  file: string;
  embedded: number;
  leftOut: TracesLeftOut;
}

/**
 * Writes the page to `file`. Unless trace objects are given, the traces are read again from the
 * files the report names (relative to `cwd`; with `within`, only files inside it), those with
 * findings first, while `budgetBytes` allows: memory holds the report and at most the budget.
 */
export async function writeHtmlReport(
  file: string,
  options: WriteHtmlReportOptions,
): Promise<WrittenHtmlReport> {
  const budgetBytes = budgetBytesOrDefault(options.budgetBytes);
  const traces =
    options.traces ??
    (await collectTraces(traceRefsOfReport(options.report), {
      cwd: options.cwd ?? process.cwd(),
      budgetBytes,
      within: options.within,
      inputFormat: options.inputFormat,
      agent: options.agent,
      pricer: options.pricer,
    }));
  const collected = isCollected(traces) ? traces : collectTraceObjects(options.report, traces, budgetBytes);
  writePieces(
    file,
    htmlReportPieces({ report: options.report, traces: collected, howToGetAll: options.howToGetAll }),
  );
  return { file, embedded: collected.traces.length, leftOut: collected.leftOut };
}

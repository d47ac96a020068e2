/**
 * The page data the renderers embed (the contract is theirs: src/report/html/pageData.ts and
 * src/diff/htmlPageData.ts) and the library types the viewer reads, in one place.
 */
import type { DiffPage } from '../../../src/diff/htmlPageData.js';
import type { DiffSignal } from '../../../src/diff/match.js';
import type { FlippedTask, SuccessRate } from '../../../src/diff/outcomes.js';
import type { EmbeddedTraceInfo, ReportPage } from '../../../src/report/html/pageData.js';
import type { Report, ReportSignal, TestResult, TraceSummary } from '../../../src/report/schema.js';
import type { Step, Trace } from '../../../src/trace/schema.js';
import type { Severity } from '../../../src/detect/signal.js';

export type {
  DiffPage,
  DiffSignal,
  EmbeddedTraceInfo,
  FlippedTask,
  Report,
  ReportPage,
  ReportSignal,
  Severity,
  Step,
  SuccessRate,
  TestResult,
  Trace,
  TraceSummary,
};
export type Page = ReportPage | DiffPage;
export type ReviewItem = Report['review'][number];
export type ReportVerdict = Report['verdicts'][number];
export type SessionScore = Report['sessions'][number];

export { PAGE_DATA_ID, traceBlockId } from '../../../src/report/html/pageData.js';

/** Worst first, as every report orders them. */
export const SEVERITY_ORDER: readonly Severity[] = ['critical', 'high', 'medium', 'low'];
export const severityRank = (s: Severity): number => SEVERITY_ORDER.length - SEVERITY_ORDER.indexOf(s);

/** A finding drawn on a trace's steps. */
export interface StepMarker {
  detector: string;
  severity: Severity;
  steps: number[];
  message: string;
  /** finding, review, suppressed, shadow; for a diff: new or persisting. */
  status: string;
}

/**
 * A report whose `traces[]`, `signals[]`, `review[]` and `sessions[]` were written to temporary files as the run went
 * (createReportAccumulator({ spill: true }), the CLI's JSON report): the Report object holds them
 * empty, and what writes the report reads them back from here, one element at a time. Kept beside
 * the object rather than in it, so the Report stays the plain data of its schema.
 */
import type { ReportSignal, Report, TraceSummary } from './schema.js';
import type { SpillFile } from './spillFile.js';

export interface SpilledLists {
  traces: SpillFile<TraceSummary>;
  signals: SpillFile<ReportSignal>;
  review: SpillFile<Report['review'][number]>;
  sessions: SpillFile<Report['sessions'][number]>;
  /** Signals by status, counted as they came (the CLI's one-line summary). */
  findings: number;
  forReview: number;
}

const spilled = new WeakMap<Report, SpilledLists>();

export function attachSpilledLists(report: Report, lists: SpilledLists): void {
  spilled.set(report, lists);
}

/** The report's spilled lists, or undefined when it holds its arrays itself. */
export function spilledListsOf(report: Report): SpilledLists | undefined {
  return spilled.get(report);
}

/** Deletes a report's temporary files (nothing for a report held in memory); idempotent. */
export function removeSpilledLists(report: Report): void {
  const lists = spilled.get(report);
  if (!lists) return;
  spilled.delete(report);
  removeLists(lists);
}

/** Deletes the lists' files (each tried, whatever the others do; the first failure thrown); idempotent. */
export function removeLists(lists: SpilledLists): void {
  let failure: unknown;
  for (const file of [lists.traces, lists.signals, lists.review, lists.sessions]) {
    try {
      file.remove();
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure !== undefined) throw failure;
}

/** The report with its review list in memory (a spilled report's, read back), for the review webhook. */
export function withReviewList(report: Report): Report {
  const lists = spilled.get(report);
  return lists ? { ...report, review: [...lists.review.values()] } : report;
}

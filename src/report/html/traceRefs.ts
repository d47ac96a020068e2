/**
 * Which recorded traces a report's HTML page shows as timelines, and in what order of need: a
 * report holds summaries, not traces, so the page re-reads the traces from the files the report
 * names. Traces with a finding or a review item come first, then those with any other signal
 * (suppressed, shadow), then the rest; the budget (collectTraces.ts) takes them in that order.
 * Pure.
 */
import type { Report } from '../schema.js';

/** 0: a finding or review item; 1: another signal (suppressed, shadow); 2: nothing to look at. */
export type TracePriority = 0 | 1 | 2;

export interface TraceRef {
  id: string;
  /** The file as the report names it (relative to the directory the run was made in). */
  file: string;
  /** The line of `file` the trace starts on, when the file is line-oriented. */
  line?: number | undefined;
  priority: TracePriority;
  /** A Vitest run's saved copy: the tests that saved it (a finding names its trace by test and id). */
  tests?: string[] | undefined;
}

/** One trace's identity: file, line and id (two traces of one file may share an id). */
export function traceRefKey(ref: Pick<TraceRef, 'id' | 'file' | 'line'>): string {
  return `${ref.file}\u0000${ref.line ?? ''}\u0000${ref.id}`;
}

const fileAndId = (file: string | undefined, id: string) => `${file ?? ''}\u0000${id}`;

/**
 * The traces of `tracejury analyze` or `merge`: every trace summary, each with the priority of its
 * worst signal. A Vitest run's report names its traces by the copies the plugin saved
 * (`tests[].savedTraces`): those of failing tests first.
 */
export function traceRefsOfReport(
  report: Pick<Report, 'traces' | 'signals' | 'review' | 'tests'>,
): TraceRef[] {
  if (report.tests) return savedTraceRefs(report.tests);
  const priority = new Map<string, TracePriority>();
  const raise = (key: string, p: TracePriority) =>
    priority.set(key, Math.min(priority.get(key) ?? 2, p) as TracePriority);
  for (const s of report.signals)
    raise(fileAndId(s.file, s.traceId), s.status === 'finding' || s.status === 'review' ? 0 : 1);
  for (const r of report.review) raise(fileAndId(r.file, r.traceId), 0);
  return report.traces.map((t) => ({
    id: t.id,
    file: t.file,
    ...(t.line !== undefined ? { line: t.line } : {}),
    priority: priority.get(fileAndId(t.file, t.id)) ?? 2,
  }));
}

/** A Vitest run's saved traces, failing tests' first; a trace two tests saved is named once. */
function savedTraceRefs(tests: NonNullable<Report['tests']>): TraceRef[] {
  const refs = new Map<string, TraceRef & { tests: string[] }>();
  for (const failedFirst of [true, false])
    for (const test of tests) {
      if ((test.state === 'failed') !== failedFirst) continue;
      for (const saved of test.savedTraces ?? []) {
        const key = traceRefKey(saved);
        const known = refs.get(key);
        if (known) known.tests.push(test.name);
        else
          refs.set(key, {
            id: saved.id,
            file: saved.file,
            line: saved.line,
            priority: failedFirst ? 0 : 1,
            tests: [test.name],
          });
      }
    }
  return [...refs.values()];
}

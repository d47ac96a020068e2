/**
 * Where each trace of a report starts in its file: the line a finding about it points at (check-run
 * annotations, links in the PR comment). Traces from JSON documents have no line. Pure.
 */
import type { Report } from './schema.js';

export type TraceLineOf = (file: string | undefined, traceId: string) => number | undefined;

export function traceLines(report: Pick<Report, 'traces'>): TraceLineOf {
  const lines = new Map<string, number>();
  for (const t of report.traces) if (t.line !== undefined) lines.set(`${t.file}\u0000${t.id}`, t.line);
  return (file, traceId) => (file === undefined ? undefined : lines.get(`${file}\u0000${traceId}`));
}

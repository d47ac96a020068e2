/**
 * STAND-IN, to be replaced by the HTML report's own `htmlReportAnchor` (branch `html-report`) when
 * it lands: delete this file and import theirs. The output is the contract agreed with the viewer:
 * `#trace=<encodeURIComponent(traceId)>&file=<encodeURIComponent(file)>&detector=<id>`, which the
 * viewer opens on that trace's timeline. Appended to the report's URL (a file, or the run's
 * artifact on GitHub: a fragment survives the redirect to the file).
 */
export function htmlReportAnchor(target: { traceId: string; file?: string; detector?: string }): string {
  const parts = [`trace=${encodeURIComponent(target.traceId)}`];
  if (target.file !== undefined) parts.push(`file=${encodeURIComponent(target.file)}`);
  if (target.detector !== undefined) parts.push(`detector=${encodeURIComponent(target.detector)}`);
  return `#${parts.join('&')}`;
}

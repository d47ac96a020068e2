/** A Report v1 as analyze and merge print it: each output format's renderer and the one-line summary. */
import type { CollectedTraces } from '../report/html/collectTraces.js';
import { htmlReportPieces } from '../report/html/render.js';
import { reportJsonChunks } from '../report/jsonChunks.js';
import { renderMarkdown } from '../report/renderMarkdown.js';
import { renderText } from '../report/renderText.js';
import { spilledListsOf } from '../report/spilledReport.js';
import type { Report } from '../report/schema.js';
import { formatWaste } from '../report/summarise.js';
import { fmtInt, plural } from '../util/thousands.js';
import { HOW_TO_GET_ALL } from './htmlTraces.js';
import type { Output, OutputFormat } from './output.js';

interface RenderOptions {
  color: boolean;
  /** Items each list of the text and markdown report shows. */
  limit?: number | undefined;
  /** The traces an HTML report embeds (collected before rendering: they are read from files). */
  traces?: CollectedTraces | undefined;
  howToGetAll?: string | undefined;
}

/** The report in pieces: JSON is written a megabyte at a time (a large run's report is tens of MB). */
const REPORT_RENDERERS: Record<OutputFormat, (report: Report, o: RenderOptions) => Iterable<string>> = {
  json: (report) => reportJsonChunks(report),
  markdown: (report, { limit }) => [renderMarkdown(report, limit !== undefined ? { listLimit: limit } : {})],
  text: (report, { color, limit }) => [
    renderText(report, { color, ...(limit !== undefined ? { limit } : {}) }),
  ],
  html: (report, { traces, howToGetAll }) => htmlReportPieces({ report, traces, howToGetAll }),
};

/** The report in `output`'s format, with the one-line summary on stdout when it went to a file. */
export function writeReport(
  output: Output,
  report: Report,
  options: Pick<RenderOptions, 'limit' | 'traces'>,
): void {
  output.write(
    REPORT_RENDERERS[output.format](report, {
      color: output.color,
      limit: options.limit,
      traces: options.traces,
      howToGetAll: HOW_TO_GET_ALL,
    }),
    (out) => reportSummaryLine(report, out),
  );
}

/** The run in one line, counted by signal status as the report's own totals are. */
function reportSummaryLine(report: Report, out: string): string {
  const spilled = spilledListsOf(report);
  const findings = spilled?.findings ?? report.signals.filter((s) => s.status === 'finding').length;
  const review = spilled?.forReview ?? report.signals.filter((s) => s.status === 'review').length;
  return (
    `tracejury: ${plural(report.inputs.traces, 'trace')}, ${plural(findings, 'finding')}` +
    `${review > 0 ? ` (${fmtInt(review)} for review)` : ''}, ` +
    `waste ${formatWaste(report)}, ${plural(report.inputs.errorCount, 'input error')}, gate ${report.gate.passed ? 'passed' : 'FAILED'} → ${out}\n`
  );
}

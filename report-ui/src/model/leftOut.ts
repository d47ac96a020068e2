/** What the page says about the traces it does not embed: how many, why, and how to get them. */
import type { ReportPage } from './page.js';
import { fmtInt, plural } from './format.js';

type PageTraces = ReportPage['traces'];

const mb = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

export function leftOutLines(traces: PageTraces): string[] {
  const l = traces.leftOut;
  if (l.traces === 0) return [];
  const lines = [
    `${plural(l.traces, 'trace')} ${l.traces === 1 ? 'is' : 'are'} not embedded in this page` +
      (l.withFindings > 0 ? ` (${fmtInt(l.withFindings)} with findings or review items)` : '') +
      `; ${plural(traces.embedded.length, 'trace')} ${traces.embedded.length === 1 ? 'is' : 'are'}.`,
  ];
  if (l.overBudget > 0)
    lines.push(
      `${fmtInt(l.overBudget)} left out by the ${l.budgetBytes !== null ? mb(l.budgetBytes) : ''} budget for embedded traces (findings first).` +
        (traces.howToGetAll ? ` ${traces.howToGetAll}` : ''),
    );
  for (const u of l.unreadable) lines.push(`${u.file}: ${u.reason} (${plural(u.traces, 'trace')}).`);
  if (l.notFound > 0)
    lines.push(
      `${plural(l.notFound, 'trace')} not found where the report says (the file changed since the run, or they were not given).`,
    );
  return lines;
}

/** Why one trace's timeline is missing, for its page. */
export function whyNotEmbedded(traces: PageTraces, file: string | undefined): string {
  const unreadable = traces.leftOut.unreadable.find((u) => u.file === file);
  if (unreadable) return `Its file could not be read again: ${unreadable.reason}.`;
  if (traces.leftOut.overBudget > 0)
    return `The page's budget for embedded traces was spent on traces with findings first.${traces.howToGetAll ? ` ${traces.howToGetAll}` : ''}`;
  return 'The trace was not found in its file when this page was written.';
}

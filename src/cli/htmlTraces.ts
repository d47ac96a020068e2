/**
 * The traces an HTML report or diff embeds, for the commands that write one: `--html-traces` (the
 * budget), the traces re-read from the files the report names, and a warning on stderr when
 * traces with findings did not fit, so a CI log says what the page lacks.
 */
import {
  budgetBytesOrDefault,
  collectTraces,
  DEFAULT_HTML_TRACES_MB,
  MB,
  type CollectedTraces,
  type CollectTracesOptions,
} from '../report/html/collectTraces.js';
import type { TraceRef } from '../report/html/traceRefs.js';
import { terminalText } from '../redact/safeText.js';
import { UsageError } from '../trace/paths.js';
import { plural } from '../util/thousands.js';
import type { CliIO } from './io.js';
import type { ValueOption } from './options.js';
import type { OutputFormat } from './output.js';

/** --html-traces MB|all: bytes, or null for every trace. */
export const htmlTracesOption = {
  argument: 'MB',
  description: `megabytes of traces an HTML page embeds (default ${DEFAULT_HTML_TRACES_MB}; all for every\ntrace): those with findings or review items first, then the rest`,
  parse: (value: string): number | null => {
    if (value === 'all') return null;
    const mb = Number(value);
    if (value.trim() === '' || !Number.isFinite(mb) || mb < 0)
      throw new UsageError(`--html-traces ${value}: expected a number of megabytes (e.g. 100) or all`);
    return Math.round(mb * MB);
  },
} satisfies ValueOption<number | null>;

/** What the page tells a reader to run for the traces it left out. */
export const HOW_TO_GET_ALL =
  'Run the command again with --html-traces all (or a larger number of megabytes) to embed them; the trace files themselves hold every step.';

/** --html-traces given with a format that embeds no trace is a mistake worth saying. */
export function checkHtmlTracesOption(format: OutputFormat, budget: number | null | undefined): void {
  if (budget !== undefined && format !== 'html')
    throw new UsageError(
      `--html-traces applies to HTML output (--format html or --out FILE.html), not ${format}`,
    );
}

/** The traces for an HTML page, read within the budget; a warning when findings' traces were left out. */
export async function htmlTraces(
  refs: readonly TraceRef[],
  io: CliIO,
  budget: number | null | undefined,
  load: Omit<CollectTracesOptions, 'cwd' | 'budgetBytes'> = {},
): Promise<CollectedTraces> {
  const collected = await collectTraces(refs, {
    cwd: io.cwd,
    budgetBytes: budgetBytesOrDefault(budget),
    ...load,
  });
  const { leftOut } = collected;
  if (leftOut.withFindings > 0)
    io.stderr.write(
      `tracejury: warning: the HTML page does not embed ${plural(leftOut.withFindings, 'trace')} with findings` +
        (leftOut.overBudget > 0
          ? ` (over the ${Math.round(((leftOut.budgetBytes ?? 0) / MB) * 10) / 10} MB budget: --html-traces all embeds every trace)`
          : '') +
        // File names come from the report: on a terminal, as every report string, inert and redacted.
        (leftOut.unreadable.length > 0
          ? `; unreadable: ${leftOut.unreadable.map((u) => terminalText(`${u.file} (${u.reason})`)).join(', ')}`
          : '') +
        '\n',
    );
  return collected;
}

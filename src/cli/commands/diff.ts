/** `tracejury diff`: compare two reports and fail on a regression. */
import path from 'node:path';
import { loadConfig } from '../../config/config.js';
import { diffReports } from '../../diff/diffReports.js';
import { diffHtmlPieces, diffTraceRefs } from '../../diff/renderHtml.js';
import { renderDiffMarkdown } from '../../diff/renderMarkdown.js';
import type { CollectedTraces } from '../../report/html/collectTraces.js';
import { persistingFindings } from '../../diff/match.js';
import { createPricer } from '../../pricing/pricer.js';
import { renderDiffText } from '../../diff/renderText.js';
import type { ReportDiff } from '../../diff/schema.js';
import { percentText } from '../../diff/quantityText.js';
import type { Report } from '../../report/schema.js';
import { readReport } from '../../report/readReport.js';
import { formatUsd } from '../../report/summarise.js';
import { escapeJsonText } from '../../redact/jsonText.js';
import { UsageError } from '../../trace/paths.js';
import { fmtInt, plural } from '../../util/thousands.js';
import { GLOSSARY } from '../glossary.js';
import { EXIT, type CliIO, type Command } from '../io.js';
import { checkHtmlTracesOption, HOW_TO_GET_ALL, htmlTraces, htmlTracesOption } from '../htmlTraces.js';
import { limitOption, optionsHelp, parseCommandArgs } from '../options.js';
import { extensionsHelp, formatOption, openOutput, outOption, type OutputFormat } from '../output.js';

const OPTIONS = {
  config: {
    argument: 'FILE',
    description:
      'tracejury.yml with a regression: section (default: found in the working\ndirectory; without one: success, the share of runs with a high-or-worse\nfinding and waste per run fail when worse beyond noise, at α 0.05 across\nthem, by at least 5 points, 5 points and 20 %)',
  },
  format: formatOption('text'),
  out: outOption(`write the diff to FILE ${extensionsHelp()};\nstdout gets a one-line summary`),
  limit: limitOption('items each list of the text and markdown diff shows'),
  'html-traces': htmlTracesOption,
};

const HELP = `tracejury diff <base-report.json> <head-report.json> [options]

Compares two Report v1 files (analyze --format json, or the Vitest reporter's): success, the
share of runs with a finding, waste and cost per run, the judges' score and each detector's share
of runs, each with a one-sided test toward worse, a 95 % interval and the pairing used (task by
task when both sides hold the same tasks: Vitest test names, recorded task keys, or the same
traces); findings new in head, resolved and persisting; tasks whose outcome flipped; session
scores. Then applies the regression: gate of the config (docs/cli.md, "The regression gate").

${optionsHelp(OPTIONS)}

Findings are matched by test + detector (Vitest reports), else by file + trace id + detector (+ the
tool or model the evidence names). A renamed trace or one moved to another file reads as resolved
plus new.

The HTML diff embeds the timelines of head's traces with new or persisting findings, read again from
the files head's report names (relative to the working directory, and only inside it): run it where
head was analysed (the Action does), or those findings open without a timeline.

Exit status: 0 the regression gate passed, 1 it failed, 2 usage error, bad config, or a report
that cannot be read or is not a Report v1 (the message names the file and the field).

${GLOSSARY}
`;

interface RenderOptions {
  color: boolean;
  limit?: number | undefined;
  /** The HTML diff's reports and head's traces. */
  html?: { base: Report; head: Report; traces: CollectedTraces } | undefined;
}

const RENDERERS: Record<OutputFormat, (diff: ReportDiff, o: RenderOptions) => Iterable<string>> = {
  json: (diff) => [escapeJsonText(JSON.stringify(diff, null, 2)) + '\n'],
  markdown: (diff, { limit }) => [renderDiffMarkdown(diff, limit !== undefined ? { listLimit: limit } : {})],
  text: (diff, { color, limit }) => [
    renderDiffText(diff, { color, ...(limit !== undefined ? { limit } : {}) }),
  ],
  html: (diff, { html }) => diffHtmlPieces({ diff, ...html, howToGetAll: HOW_TO_GET_ALL }),
};

function summaryLine(diff: ReportDiff, out: string): string {
  const o = diff.outcomes;
  const success =
    o?.base && o.head ? `success ${percentText(o.base.rate)} → ${percentText(o.head.rate)}, ` : '';
  const waste = diff.quantities.find((q) => q.id === 'waste');
  const wasteText =
    waste?.status === 'unknown'
      ? 'waste unknown'
      : `waste ${formatUsd(diff.totals.wasteUsd.base)} → ${formatUsd(diff.totals.wasteUsd.head)}`;
  return (
    `tracejury diff: ${success}${wasteText}, ` +
    `${plural(diff.signals.new.length, 'new finding')}, ${fmtInt(diff.signals.resolved.length)} resolved, ` +
    `regression gate ${diff.gate.passed ? 'passed' : 'FAILED'} → ${out}\n`
  );
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('diff', args, OPTIONS);
  if (positionals.length !== 2)
    throw new UsageError(
      `diff needs two reports, base then head (got ${positionals.length}): tracejury diff <base-report.json> <head-report.json>`,
    );
  const output = openOutput(values, io, { defaultFormat: 'text', what: 'the diff' });
  checkHtmlTracesOption(output.format, values['html-traces']);
  const config = loadConfig(values.config ? path.resolve(io.cwd, values.config) : undefined, io.cwd);
  for (const w of config.warnings) io.stderr.write(`tracejury: warning: ${w}\n`);
  const base = readReport(positionals[0]!, io.cwd);
  const head = readReport(positionals[1]!, io.cwd);
  const diff = diffReports(base, head, { regression: config.regression });
  const html =
    output.format === 'html'
      ? {
          base,
          head,
          traces: await htmlTraces(
            diffTraceRefs(diff, head, persistingFindings(base, head)),
            io,
            values['html-traces'],
            // A report may come from a fork: only files inside the working directory are read.
            { within: io.cwd, pricer: createPricer(config.prices) },
          ),
        }
      : undefined;
  output.write(RENDERERS[output.format](diff, { color: output.color, limit: values.limit, html }), (out) =>
    summaryLine(diff, out),
  );
  return diff.gate.passed ? EXIT.ok : EXIT.gateFailed;
}

export const diffCommand: Command = { name: 'diff', help: HELP, run };

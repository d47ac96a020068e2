/** `tracejury merge`: one report from the partial reports of a sharded run. */
import { mergeReports } from '../../report/mergeReports.js';
import { readReport } from '../../report/readReport.js';
import { UsageError } from '../../trace/paths.js';
import { GLOSSARY } from '../glossary.js';
import { EXIT, type CliIO, type Command } from '../io.js';
import { limitOption, optionsHelp, parseCommandArgs } from '../options.js';
import { traceRefsOfReport } from '../../report/html/traceRefs.js';
import { checkHtmlTracesOption, htmlTraces, htmlTracesOption } from '../htmlTraces.js';
import { formatOption, openOutput, outOption } from '../output.js';
import { writeReport } from '../reportOutput.js';

const OPTIONS = {
  format: formatOption('json'),
  out: outOption('write the merged report to FILE; stdout gets a one-line summary'),
  limit: limitOption('items each list of the text and markdown report shows'),
  'html-traces': htmlTracesOption,
};

const HELP = `tracejury merge <partial reports…> [options]

Joins the partial reports of a sharded run (Actions matrix jobs that each analysed a slice of the
trace files, or ran a shard of the Vitest suite) into one Report v1: lists joined, counts summed,
waste recomputed, and the gate decided again over all findings together; reasons a shard raised for
its sessions, outcomes or judges are carried over. A test run's gate is its tests.

${optionsHelp(OPTIONS)}

An HTML page embeds the timelines of the traces the shards name, read again from their files
relative to the working directory, and only inside it (no \`../\`, no link out of it).

Exit status: 0 the merged gate passed, 1 it failed, 2 usage error or a report that cannot be read
or is not a Report v1 (the message names the file and the field).

${GLOSSARY}
`;

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('merge', args, OPTIONS);
  if (positionals.length === 0)
    throw new UsageError(
      'merge needs the partial reports to join: tracejury merge <report.json…> [--out FILE]',
    );
  const output = openOutput(values, io, { defaultFormat: 'json', what: 'the merged report' });
  checkHtmlTracesOption(output.format, values['html-traces']);
  const report = mergeReports(positionals.map((file) => readReport(file, io.cwd)));
  // The shards name their trace files relative to the checkout: read them from here, and (as
  // diff does) only inside it, whatever a shard's report names.
  const traces =
    output.format === 'html'
      ? await htmlTraces(traceRefsOfReport(report), io, values['html-traces'], { within: io.cwd })
      : undefined;
  writeReport(output, report, { limit: values.limit, traces });
  return report.gate.passed ? EXIT.ok : EXIT.gateFailed;
}

export const mergeCommand: Command = { name: 'merge', help: HELP, run };

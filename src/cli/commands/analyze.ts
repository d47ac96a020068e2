/** `tracejury analyze`: detectors, waste and the gate over recorded traces. */
import path from 'node:path';
import { analyze, DEFAULT_STATE_DIR } from '../../analyze.js';
import { traceRefsOfReport } from '../../report/html/traceRefs.js';
import type { Report } from '../../report/schema.js';
import { removeSpilledLists } from '../../report/spilledReport.js';
import { prepareRun } from '../../runSetup.js';
import { CASSETTE_ENV, CASSETTE_MODES, type CassetteMode } from '../../judge/cassette.js';
import { SEVERITIES, type Severity } from '../../detect/signal.js';
import type { LoadProgress } from '../../trace/load.js';
import { UsageError } from '../../trace/paths.js';
import { nearest } from '../../util/nearest.js';
import { plural } from '../../util/thousands.js';
import { GLOSSARY } from '../glossary.js';
import { writeInputErrors } from '../inputErrors.js';
import { EXIT, type CliIO, type Command } from '../io.js';
import {
  agentOption,
  configOption,
  inputFormatOption,
  limitOption,
  optionsHelp,
  parseCommandArgs,
  type OptionValues,
  stateDirOption,
} from '../options.js';
import { checkHtmlTracesOption, htmlTraces, htmlTracesOption } from '../htmlTraces.js';
import { extensionsHelp, formatOption, openOutput, outOption, type OutputFormat } from '../output.js';
import { writeReport } from '../reportOutput.js';

const OPTIONS = {
  config: configOption,
  'input-format': inputFormatOption,
  format: formatOption('text'),
  out: outOption(`write the report to FILE ${extensionsHelp()};\nstdout gets a one-line summary`),
  'html-traces': htmlTracesOption,
  'state-dir': stateDirOption,
  'no-progress': { description: 'no progress line on a terminal' },
  jobs: {
    argument: 'N',
    description:
      'worker threads for inputs over 32 MB (default 1; try the number of\ncores on larger machines); the report is the same whatever N is',
    parse: jobsOf,
  },
  agent: agentOption,
  'allow-input-errors': {
    description:
      'input that could not be read is listed but does not fail the gate\n(also failOn: { inputErrors: false } in tracejury.yml)',
  },
  'fail-on': {
    argument: 'SEVERITY',
    description:
      "findings of this severity or worse fail the gate (overrides failOn's\nseverities in the config)",
    parse: failOnOf,
  },
  'default-model': {
    argument: 'NAME',
    description:
      'price calls whose model is not named ("unknown", as in τ-bench runs) as\nNAME (also prices.defaultModel in tracejury.yml)',
  },
  cassette: {
    argument: 'MODE',
    description: `the judge cassette: replay (recorded answers only), record (call\nevery judge and record), auto (replay, record a miss); over\n${CASSETTE_ENV} and tribunal.cassette.mode`,
    parse: cassetteModeOf,
  },
  limit: limitOption(
    'items each list of the text and markdown report shows (examples per\ndetector, failing traces, review cases, input errors); cut lists say\nhow many were left out',
  ),
};

const HELP = `tracejury analyze <paths, globs or - for stdin…> [options]

Reads recorded traces (native, otel, openinference, langfuse, records, openai-messages, openai-agents: detected
per file), runs the detectors, prices the waste, escalates gray-zone signals to the tribunal when
judges are configured, and prints the report with the gate.

${optionsHelp(OPTIONS, [
  'config',
  'input-format',
  'format',
  'out',
  'html-traces',
  'fail-on',
  'allow-input-errors',
  'default-model',
  'cassette',
  'state-dir',
  'agent',
  'jobs',
  'limit',
  'no-progress',
])}

Exit status: 0 the gate passed, 1 it failed (a finding at failOn's severities, a detector that
crashed, or input that could not be read — listed on stderr as file:line: field: what is wrong),
2 usage error, bad config or no usable input. A closed stdout (| head) ends the run quietly.

${GLOSSARY}
`;

/**
 * --jobs N: worker threads, 1 unless asked. On the 2-vCPU machines this project is built on, two
 * workers each given half the traces take as long as one thread given all of them (the work is
 * bound by memory and GC, not by the core), so more threads are opt-in (docs/performance.md).
 */
function jobsOf(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new UsageError(`--jobs ${value}: expected a whole number of threads from 1 to 256`);
  return n;
}

/** --fail-on SEVERITY: that severity or worse, as `failOn: high` in the config. */
function failOnOf(value: string): Severity[] {
  const i = (SEVERITIES as readonly string[]).indexOf(value);
  if (i === -1) {
    const hint = nearest(value, SEVERITIES);
    throw new UsageError(
      `--fail-on ${value}: expected one of ${SEVERITIES.join(', ')}${hint ? ` — did you mean ${hint}?` : ''}`,
    );
  }
  return SEVERITIES.slice(0, i + 1);
}

/** --cassette MODE. */
function cassetteModeOf(value: string): CassetteMode {
  if ((CASSETTE_MODES as readonly string[]).includes(value)) return value as CassetteMode;
  const hint = nearest(value, CASSETTE_MODES);
  throw new UsageError(
    `--cassette ${value}: expected one of ${CASSETTE_MODES.join(', ')}${hint ? ` — did you mean ${hint}?` : ''}`,
  );
}

/** A word as a POSIX shell reads it back: quoted only when it has to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** This command line again without --cassette: what a cassette miss says to run in record mode. */
function rerunCommand(args: readonly string[]): string {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--cassette') i++;
    else if (!args[i]!.startsWith('--cassette=')) kept.push(args[i]!);
  }
  return ['tracejury', 'analyze', ...kept].map(shellWord).join(' ');
}

/** "reading 3/10 files, …" on one rewritten line, only on a terminal outside CI. */
function progressPrinter(io: CliIO, enabled: boolean) {
  if (!enabled || !io.stderr.isTTY || io.env.CI) return { onProgress: undefined, done: () => {} };
  let shown = false;
  return {
    onProgress: (p: LoadProgress) => {
      shown = true;
      const pct = p.bytesTotal > 0 ? Math.floor((100 * p.bytesRead) / p.bytesTotal) : 100;
      io.stderr.write(
        `\r\x1b[2Kreading ${p.filesDone}/${p.files} files, ${p.traces} traces, ${pct}% — ${path.basename(p.file)}`,
      );
    },
    done: () => {
      if (shown) io.stderr.write('\r\x1b[2K');
    },
  };
}

type AnalyzeValues = OptionValues<typeof OPTIONS>;

/**
 * An HTML report's traces: read again from the input files, as the run read them (the same format,
 * agent and prices), those with findings first, within --html-traces.
 */
async function tracesForHtml(format: OutputFormat, report: Report, values: AnalyzeValues, io: CliIO) {
  if (format !== 'html') return undefined;
  const { pricer, config } = prepareRun({
    cwd: io.cwd,
    ...(values.config ? { configFile: path.resolve(io.cwd, values.config) } : {}),
    ...(values['default-model'] !== undefined ? { defaultModel: values['default-model'] } : {}),
    baselines: false,
  });
  return htmlTraces(traceRefsOfReport(report), io, values['html-traces'], {
    inputFormat: values['input-format'],
    agent: values.agent ?? config.agent,
    pricer,
  });
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('analyze', args, OPTIONS);
  if (positionals.length === 0) throw new UsageError('analyze needs at least one path, directory or glob');
  const output = openOutput(values, io, { defaultFormat: 'text', what: 'the report' });
  checkHtmlTracesOption(output.format, values['html-traces']);
  const progress = progressPrinter(io, !values['no-progress']);
  const report = await analyze(positionals, {
    configFile: values.config ? path.resolve(io.cwd, values.config) : undefined,
    inputFormat: values['input-format'],
    stateDir: path.resolve(io.cwd, values['state-dir'] ?? DEFAULT_STATE_DIR),
    onProgress: progress.onProgress,
    cwd: io.cwd,
    env: io.env,
    jobs: values.jobs ?? 1,
    ...(values.agent !== undefined ? { agent: values.agent } : {}),
    ...(values['allow-input-errors'] ? { allowInputErrors: true } : {}),
    ...(values['fail-on'] !== undefined ? { failOn: values['fail-on'] } : {}),
    ...(values['default-model'] !== undefined ? { defaultModel: values['default-model'] } : {}),
    ...(values.cassette !== undefined ? { cassette: values.cassette } : {}),
    rerunCommand: rerunCommand(args),
    // The JSON report streams its traces and signals from temporary files: memory stays bounded
    // however many traces the input has. The text, markdown and HTML renderers read them whole.
    spillReport: output.format === 'json',
  });
  progress.done();
  try {
    const traces = await tracesForHtml(output.format, report, values, io);
    writeReport(output, report, { limit: values.limit, traces });
  } finally {
    removeSpilledLists(report);
  }
  // Whatever the format and --out, what could not be read is said where CI logs show it.
  writeInputErrors(io, report.inputs);
  if (report.judgesNotRun)
    io.stderr.write(
      `tracejury: warning: judges never ran: ${plural(report.judgesNotRun.cases, 'escalated case')} left for review — ${report.judgesNotRun.reason}\n`,
    );
  if (report.inputs.traces === 0) {
    io.stderr.write(
      `tracejury: no usable trace in the input (${plural(report.inputs.errorCount, 'error')}); see the errors above or in inputs.errors\n`,
    );
    return EXIT.usage;
  }
  return report.gate.passed ? EXIT.ok : EXIT.gateFailed;
}

export const analyzeCommand: Command = { name: 'analyze', help: HELP, run };

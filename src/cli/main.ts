/**
 * The `tracejury` command. `runCli` takes its streams and returns the exit code, so tests drive
 * it in-process; bin.ts is the only place that touches process.exit.
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { analyze, DEFAULT_STATE_DIR } from '../analyze.js';
import { describeLeftOut, whyNotLearned, type LeftOutReason } from '../baseline/learn.js';
import {
  DEFAULT_BASELINE_FILE,
  emptyBaselines,
  keysOfAgent,
  mergeBaselines,
  readBaselineFile,
  resetBaselines,
  summariseBaselines,
  updateBaselines,
  withBaselineLock,
  writeBaselineFile,
  type BaselineFile,
} from '../baseline/store.js';
import { configSchema, loadConfig } from '../config/config.js';
import { diffReports } from '../diff/diffReports.js';
import { renderDiffMarkdown } from '../diff/renderMarkdown.js';
import { renderDiffText } from '../diff/renderText.js';
import type { ReportDiff } from '../diff/schema.js';
import { reportJsonChunks } from '../report/jsonChunks.js';
import { mergeReports } from '../report/mergeReports.js';
import { renderMarkdown } from '../report/renderMarkdown.js';
import { SEVERITIES, type Severity } from '../detect/signal.js';
import { formatInputError, renderText } from '../report/renderText.js';
import { readReport } from '../report/readReport.js';
import { ReportSchema, type Report } from '../report/schema.js';
import { formatUsd } from '../report/summarise.js';
import { fmtInt, plural } from '../util/thousands.js';
import { INPUT_FORMATS, type InputFormat } from '../trace/importer.js';
import { type LoadProgress } from '../trace/load.js';
import { UsageError } from '../trace/paths.js';
import { traceJsonSchema, type Trace } from '../trace/schema.js';
import { quoted, safeWriter, terminalText } from '../redact/safeText.js';
import { VERSION } from '../version.js';
import { fsErrorReason, isFsError } from '../util/fsError.js';
import { nearest } from '../util/nearest.js';
import { z } from 'zod';

export interface CliIO {
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  cwd: string;
  env: Record<string, string | undefined>;
}

export const EXIT = { ok: 0, gateFailed: 1, usage: 2 } as const;

const GLOSSARY = `Words used in reports:
  severity     critical | high | medium | low: how bad a signal is if it is real
  confidence   0–1, how sure a detector (or the judges) is
  gray zone    confidence 0.35–0.65: escalated to the next tier (embeddings, judges), else review
  finding      a signal above the gray zone, not suppressed, not shadow: what the gate and every
               total count
  review       a gray-zone signal no automatic tier decided: listed for a human, never failing
  suppressed   waste a higher-priority detector already charged (suppressedBy names it)
  shadow       from a detector set shadow: true — reported and marked, never counted
  failOn       the severities of findings that fail the gate (default critical, high); input
               that could not be read fails it too unless allowed`;

const HELP = `tracejury ${VERSION} — evals for LLM agents in CI

Usage:
  tracejury analyze <paths or globs…> [options]   detectors, waste and the gate over recorded traces
  tracejury baseline update|show|reset …          per-agent P75 baselines from good runs
  tracejury diff <base.json> <head.json> [options] compare two reports; fail on a regression
  tracejury merge <partial reports…> [options]    one report from the shards of a matrix run
  tracejury schema trace|config|report            print a JSON Schema (for editors and validators)
  tracejury --version | --help

Run tracejury <command> --help for a command's options and exit codes.

${GLOSSARY}
`;

const ANALYZE_HELP = `tracejury analyze <paths, globs or - for stdin…> [options]

Reads recorded traces (native, otel, openinference, langfuse, records, openai-messages: detected
per file), runs the detectors, prices the waste, escalates gray-zone signals to the tribunal when
judges are configured, and prints the report with the gate.

Options:
  --config FILE          tracejury.yml / detectors.yml (default: found in the working directory)
  --input-format F       ${INPUT_FORMATS.join(' | ')} (default: detected per file)
  --format F             text | json | markdown (default: text, or from --out's extension)
  --out FILE             write the report to FILE (.json → JSON, .md → markdown, unless --format);
                         stdout gets a one-line summary
  --fail-on SEVERITY     findings of this severity or worse fail the gate (overrides failOn's
                         severities in the config)
  --allow-input-errors   input that could not be read is listed but does not fail the gate
                         (also failOn: { inputErrors: false } in tracejury.yml)
  --default-model NAME   price calls whose model is not named ("unknown", as in τ-bench runs) as
                         NAME (also prices.defaultModel in tracejury.yml)
  --state-dir DIR        baselines and cassette (default: .tracejury)
  --agent NAME           the agent of traces that name none (default: agent: in config, else the
                         file's path), for baselines
  --jobs N               worker threads for inputs over 32 MB (default 1; try the number of
                         cores on larger machines); the report is the same whatever N is
  --limit N              items each list of the text and markdown report shows (examples per
                         detector, failing traces, review cases, input errors); cut lists say
                         how many were left out
  --no-progress          no progress line on a terminal

Exit status: 0 the gate passed, 1 it failed (a finding at failOn's severities, a detector that
crashed, or input that could not be read — listed on stderr as file:line: field: what is wrong),
2 usage error, bad config or no usable input. A closed stdout (| head) ends the run quietly.

${GLOSSARY}
`;

const DIFF_HELP = `tracejury diff <base-report.json> <head-report.json> [options]

Compares two Report v1 files (analyze --format json, or the Vitest reporter's): totals and waste
with their changes, findings new in head, resolved and persisting, session scores, the judges'
pass rate, and whether each change per trace is real or noise (a seeded 95 % bootstrap interval;
no interval with fewer than 10 traces a side). Then applies the regression: gate of the config.

Options:
  --config FILE          tracejury.yml with a regression: section (default: found in the working
                         directory; without one: new high or critical findings fail, waste per
                         trace up more than 20 % beyond noise fails, a pass-rate drop over 0.1
                         beyond noise fails)
  --format F             text | json | markdown (default: text, or from --out's extension)
  --out FILE             write the diff to FILE (.json → JSON, .md → markdown, unless --format);
                         stdout gets a one-line summary
  --limit N              items each list of the text and markdown diff shows

Findings are matched by test + detector (Vitest reports), else by file + trace id + detector (+ the
tool or model the evidence names). A renamed trace or one moved to another file reads as resolved
plus new.

Exit status: 0 the regression gate passed, 1 it failed, 2 usage error, bad config, or a report
that cannot be read or is not a Report v1 (the message names the file and the field).

${GLOSSARY}
`;

const MERGE_HELP = `tracejury merge <partial reports…> [options]

Joins the partial reports of a sharded run (Actions matrix jobs that each analysed a slice of the
trace files, or ran a shard of the Vitest suite) into one Report v1: lists joined, counts summed,
waste recomputed, and the gate decided again over all findings together; reasons a shard raised for
its sessions, outcomes or judges are carried over. A test run's gate is its tests.

Options:
  --format F             json | text | markdown (default: json, or from --out's extension)
  --out FILE             write the merged report to FILE; stdout gets a one-line summary
  --limit N              items each list of the text and markdown report shows

Exit status: 0 the merged gate passed, 1 it failed, 2 usage error or a report that cannot be read
or is not a Report v1 (the message names the file and the field).

${GLOSSARY}
`;

const SCHEMA_HELP = `tracejury schema trace|config|report

Prints the JSON Schema of the trace format, of tracejury.yml, or of the Report v1 JSON that
analyze --format json writes (for editors and validators).

Exit status: 0, or 2 for an unknown schema name.
`;

/** Input errors listed on stderr; the rest are counted (the report's inputs.errors holds up to 1,000). */
const INPUT_ERRORS_ON_STDERR = 20;

/** The first input errors as `file:line: field: what is wrong`, then how many more there are. */
function writeInputErrors(io: CliIO, inputs: Report['inputs']): void {
  for (const e of inputs.errors.slice(0, INPUT_ERRORS_ON_STDERR)) io.stderr.write(`${formatInputError(e)}\n`);
  const more = inputs.errorCount - Math.min(inputs.errors.length, INPUT_ERRORS_ON_STDERR);
  if (more > 0)
    io.stderr.write(
      `… and ${plural(more, 'more input error')}; the report's inputs.errors lists up to ${fmtInt(inputs.errors.length)} (--format json)\n`,
    );
}

function formatOf(value: string | undefined): 'text' | 'json' | 'markdown' {
  if (value === undefined) return 'text';
  if (value === 'text' || value === 'json' || value === 'markdown') return value;
  throw new UsageError(`--format ${value}: expected text, json or markdown`);
}

/**
 * --jobs N: worker threads, 1 unless asked. On the 2-vCPU machines this project is built on, two
 * workers each given half the traces take as long as one thread given all of them (the work is
 * bound by memory and GC, not by the core), so more threads are opt-in (README: Performance).
 */
function jobsOf(value: string | undefined): number {
  if (value === undefined) return 1;
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

/** --out FILE without --format: the format its extension names (.json, .md, .markdown), else text. */
function formatOfFile(file: string): 'text' | 'json' | 'markdown' {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.md' || ext === '.markdown') return 'markdown';
  return 'text';
}

function inputFormatOf(value: string | undefined): InputFormat | undefined {
  if (value === undefined) return undefined;
  if ((INPUT_FORMATS as readonly string[]).includes(value)) return value as InputFormat;
  throw new UsageError(`--input-format ${value}: expected one of ${INPUT_FORMATS.join(', ')}`);
}

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

/** The report in pieces: JSON is written a megabyte at a time (a large run's report is tens of MB). */
function render(
  report: Report,
  format: 'text' | 'json' | 'markdown',
  color: boolean,
  limit?: number,
): Iterable<string> {
  if (format === 'json') return reportJsonChunks(report);
  if (format === 'markdown') return [renderMarkdown(report, limit !== undefined ? { listLimit: limit } : {})];
  return [renderText(report, { color, ...(limit !== undefined ? { limit } : {}) })];
}

/** --limit N: items each list of the text and markdown report shows. */
function limitOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--limit ${value}: expected a whole number of list items, 1 or more`);
  return n;
}

/** Writes the pieces to a new file, one at a time. */
function writePieces(file: string, pieces: Iterable<string>): void {
  const fd = openSync(file, 'w');
  try {
    for (const piece of pieces) writeSync(fd, piece);
  } finally {
    closeSync(fd);
  }
}

/** The run in one line, counted by signal status as the report's own totals are. */
function oneLine(report: Report, out: string): string {
  const findings = report.signals.filter((s) => s.status === 'finding').length;
  const review = report.signals.filter((s) => s.status === 'review').length;
  return (
    `tracejury: ${plural(report.inputs.traces, 'trace')}, ${plural(findings, 'finding')}` +
    `${review > 0 ? ` (${fmtInt(review)} for review)` : ''}, ` +
    `waste ${formatUsd(report.waste.totalUsd)}, ${plural(report.inputs.errorCount, 'input error')}, gate ${report.gate.passed ? 'passed' : 'FAILED'} → ${out}\n`
  );
}

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

/**
 * parseArgs for one command, with an unknown option reported in one short line that names the
 * command and the nearest valid option (Node's own message explains `--` positionals instead).
 */
function parseCommandArgs<O extends OptionSpec>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, allowPositionals: true, options });
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? String(err.code) : '';
    const unknown =
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && /'(-{1,2}[^']+)'/.exec((err as Error).message);
    if (!unknown) throw err;
    const known = Object.keys(options).map((o) => `--${o}`);
    const hint = nearest(unknown[1]!, known);
    throw new UsageError(
      `${command}: unknown option ${unknown[1]}${hint ? ` — did you mean ${hint}?` : ''} (options: ${known.join(', ')})`,
    );
  }
}

/** `--help` / `-h` anywhere before a `--` terminator asks for help, whatever the command. */
function asksForHelp(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}

/** Creates the report's directory and fails, naming --out, when the report could not go there. */
function checkWritable(outFile: string, given: string): void {
  try {
    mkdirSync(path.dirname(outFile), { recursive: true });
    if (existsSync(outFile) && statSync(outFile).isDirectory())
      throw Object.assign(new Error('is a directory'), { code: 'EISDIR', syscall: 'open' });
    accessSync(existsSync(outFile) ? outFile : path.dirname(outFile), constants.W_OK);
  } catch (err) {
    if (!isFsError(err)) throw err;
    throw new UsageError(`--out ${given}: cannot write the report there: ${fsErrorReason(err)}`);
  }
}

async function analyzeCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('analyze', args, {
    config: { type: 'string' },
    'input-format': { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
    'state-dir': { type: 'string' },
    'no-progress': { type: 'boolean' },
    jobs: { type: 'string' },
    agent: { type: 'string' },
    'allow-input-errors': { type: 'boolean' },
    'fail-on': { type: 'string' },
    'default-model': { type: 'string' },
    limit: { type: 'string' },
  });
  if (positionals.length === 0) throw new UsageError('analyze needs at least one path, directory or glob');
  const jobs = jobsOf(values.jobs);
  const format =
    values.format === undefined && values.out ? formatOfFile(values.out) : formatOf(values.format);
  const outFile = values.out === undefined ? undefined : path.resolve(io.cwd, values.out);
  // A report that cannot be written is known before minutes of analysis, not after.
  if (outFile) checkWritable(outFile, values.out!);
  const progress = progressPrinter(io, !values['no-progress']);
  const report = await analyze(positionals, {
    configFile: values.config ? path.resolve(io.cwd, values.config) : undefined,
    inputFormat: inputFormatOf(values['input-format']),
    stateDir: path.resolve(io.cwd, values['state-dir'] ?? DEFAULT_STATE_DIR),
    onProgress: progress.onProgress,
    cwd: io.cwd,
    env: io.env,
    jobs,
    ...(values.agent !== undefined ? { agent: agentOf(values.agent) } : {}),
    ...(values['allow-input-errors'] ? { allowInputErrors: true } : {}),
    ...(values['fail-on'] !== undefined ? { failOn: failOnOf(values['fail-on']) } : {}),
    ...(values['default-model'] !== undefined ? { defaultModel: values['default-model'] } : {}),
  });
  progress.done();
  const pieces = render(
    report,
    format,
    Boolean(io.stdout.isTTY) && !io.env.NO_COLOR && !values.out,
    limitOf(values.limit),
  );
  if (outFile) {
    try {
      writePieces(outFile, pieces);
    } catch (err) {
      if (!isFsError(err)) throw err;
      throw new UsageError(`--out ${values.out}: cannot write the report: ${fsErrorReason(err)}`);
    }
    io.stdout.write(oneLine(report, values.out!));
  } else {
    for (const piece of pieces) io.stdout.write(piece);
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

const BASELINE_HELP_INTRO = `tracejury baseline update|show|reset

Six detectors (STEP_COUNT_INFLATION, SLOW_STEP, CONTEXT_BLOAT, REASONING_STALL, COST_SPIKE,
SESSION_LATENCY) compare a run with the P75 of its agent's last good runs once 20 exist.
update learns only good runs (status ok, no high or critical finding, a successful outcome where
one is recorded); show lists each agent's runs and P75s; reset forgets all or one agent's runs.

Exit status: 0, or 2 for usage errors, an unknown agent or an unreadable store.
`;

const BASELINE_USAGE = `usage:
  tracejury baseline update <paths…> [--agent NAME] [--state-dir DIR] [--input-format F] [--config FILE]
  tracejury baseline show [agent] [--format text|json] [--state-dir DIR] [--config FILE]
  tracejury baseline reset [agent] [--state-dir DIR]`;

const BASELINE_HELP = `${BASELINE_HELP_INTRO}\n${BASELINE_USAGE}\n`;

async function baselineCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'update') return baselineUpdate(rest, io);
  if (sub === 'show') return baselineShow(rest, io);
  if (sub === 'reset') return baselineReset(rest, io);
  throw new UsageError(BASELINE_USAGE);
}

function baselineFileOf(stateDir: string | undefined, io: CliIO): string {
  return path.join(path.resolve(io.cwd, stateDir ?? DEFAULT_STATE_DIR), DEFAULT_BASELINE_FILE);
}

/**
 * Learns only good runs: the traces go through analyze (detectors against the baselines as they
 * stand, no judges), and a run with status other than ok, a failed recorded outcome or a high or
 * critical finding is left out (baseline/learn.ts), with the count of each reason printed.
 */
async function baselineUpdate(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('baseline update', args, {
    'state-dir': { type: 'string' },
    'input-format': { type: 'string' },
    config: { type: 'string' },
    agent: { type: 'string' },
  });
  if (positionals.length === 0)
    throw new UsageError('baseline update needs at least one path, directory or glob');
  const configFile = values.config ? path.resolve(io.cwd, values.config) : undefined;
  const config = loadConfig(configFile, io.cwd);
  const stateDir = path.resolve(io.cwd, values['state-dir'] ?? DEFAULT_STATE_DIR);
  const file = path.join(stateDir, DEFAULT_BASELINE_FILE);
  // Fail on an unreadable or damaged store before reading the traces; it is read again under the lock.
  readBaselineFile(file);
  // The new runs are collected apart (windowed, so memory stays bounded) and merged into the store
  // under the lock, so that concurrent updates keep each other's runs and the lock is held briefly.
  let added = emptyBaselines();
  const pending: Trace[] = [];
  const leftOut = new Map<LeftOutReason, number>();
  let learned = 0;
  const report = await analyze(positionals, {
    configFile,
    inputFormat: inputFormatOf(values['input-format']),
    stateDir,
    cwd: io.cwd,
    ...(values.agent !== undefined ? { agent: agentOf(values.agent) } : {}),
    escalate: false,
    notify: false,
    onTrace: ({ trace }, signals) => {
      const reason = whyNotLearned(trace, signals);
      if (reason) {
        leftOut.set(reason, (leftOut.get(reason) ?? 0) + 1);
        return;
      }
      learned++;
      pending.push(trace);
      if (pending.length >= 1000) added = updateBaselines(added, pending.splice(0), config.baselines.window);
    },
  });
  added = updateBaselines(added, pending, config.baselines.window);
  const store = await withBaselineLock(file, () => {
    const merged = mergeBaselines(readBaselineFile(file), added, config.baselines.window);
    writeBaselineFile(file, merged);
    return merged;
  });
  writeInputErrors(io, report.inputs);
  const learnedAgents = Object.keys(added.agents).length;
  io.stdout.write(
    `learned ${plural(learned, 'run')} of ${plural(learnedAgents, 'agent')}; ${describeLeftOut(leftOut)}\n`,
  );
  const agents = Object.entries(store.agents).map(
    ([k, v]) => `${terminalText(k, 80)} (${v.runs.length} runs)`,
  );
  const shown = agents.slice(0, 10).join(', ') + (agents.length > 10 ? `, … ${agents.length - 10} more` : '');
  io.stdout.write(`baselines: ${shown || 'no successful runs'} → ${path.relative(io.cwd, file)}\n`);
  return report.inputs.traces === 0 ? EXIT.usage : EXIT.ok;
}

function agentOf(value: string): string {
  if (value.trim() === '') throw new UsageError('--agent needs a name');
  return value;
}

/** The store keys an `[agent]` argument names; a name with no baseline is a usage error naming those that exist. */
function agentKeysOrFail(store: BaselineFile, agent: string): string[] {
  const keys = keysOfAgent(store, agent);
  if (keys.length > 0) return keys;
  const known = Object.keys(store.agents);
  const hint = nearest(agent, known);
  throw new UsageError(
    `no baseline for agent ${quoted(agent)}${hint ? ` — did you mean ${quoted(hint)}?` : ''}` +
      (known.length
        ? ` (agents: ${known
            .slice(0, 10)
            .map((k) => quoted(k))
            .join(', ')}${known.length > 10 ? ', …' : ''})`
        : ' (the store is empty)'),
  );
}

const METRIC_LABELS: Record<string, (v: number) => string> = {
  stepCount: (v) => `steps ${fmtNumber(v)}`,
  maxStepDurationMs: (v) => `slowest step ${fmtNumber(v)} ms`,
  maxPromptTokens: (v) => `largest prompt ${fmtNumber(v)} tokens`,
  llmToolRatio: (v) => `LLM/tool calls ${fmtNumber(v)}`,
  totalTokens: (v) => `tokens ${fmtNumber(v)}`,
  durationMs: (v) => `duration ${fmtNumber(v)} ms`,
};

function fmtNumber(v: number): string {
  return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(2);
}

function baselineShow(args: string[], io: CliIO): number {
  const { values, positionals } = parseCommandArgs('baseline show', args, {
    'state-dir': { type: 'string' },
    config: { type: 'string' },
    format: { type: 'string' },
  });
  if (positionals.length > 1) throw new UsageError(BASELINE_USAGE);
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`--format ${format}: expected text or json`);
  const config = loadConfig(values.config ? path.resolve(io.cwd, values.config) : undefined, io.cwd);
  const { minRuns, window } = config.baselines;
  const file = baselineFileOf(values['state-dir'], io);
  const store = readBaselineFile(file);
  const only = positionals[0] === undefined ? undefined : agentKeysOrFail(store, positionals[0]);
  const agents = summariseBaselines(store, minRuns, window, only);
  if (format === 'json') {
    io.stdout.write(
      JSON.stringify({ file: path.relative(io.cwd, file), minRuns, window, agents }, null, 2) + '\n',
    );
    return EXIT.ok;
  }
  const lines = [
    `baselines in ${path.relative(io.cwd, file)} (active from ${minRuns} runs; the last ${window} kept)`,
  ];
  if (agents.length === 0) lines.push('  no agents yet: `tracejury baseline update <traces>` learns them');
  for (const a of agents) {
    const state = a.active ? 'active' : `static thresholds until ${minRuns}`;
    lines.push(`  ${terminalText(a.agent)}: ${plural(a.runs, 'run')} — ${state}`);
    const p75 = Object.entries(a.p75).map(([m, v]) => METRIC_LABELS[m]!(v));
    if (p75.length) lines.push(`    P75: ${p75.join(', ')}`);
  }
  io.stdout.write(lines.join('\n') + '\n');
  return EXIT.ok;
}

async function baselineReset(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('baseline reset', args, {
    'state-dir': { type: 'string' },
  });
  if (positionals.length > 1) throw new UsageError(BASELINE_USAGE);
  const agent = positionals[0];
  const file = baselineFileOf(values['state-dir'], io);
  readBaselineFile(file);
  const removed = await withBaselineLock(file, () => {
    const store = readBaselineFile(file);
    const keys = agent === undefined ? undefined : agentKeysOrFail(store, agent);
    const gone = Object.entries(store.agents).filter(([k]) => keys === undefined || keys.includes(k));
    writeBaselineFile(file, resetBaselines(store, keys));
    return { agents: gone.length, runs: gone.reduce((n, [, v]) => n + v.runs.length, 0) };
  });
  io.stdout.write(
    `baselines: removed ${plural(removed.runs, 'run')} of ${plural(removed.agents, 'agent')}` +
      `${agent === undefined ? ' (all)' : ` (${terminalText(agent)})`} → ${path.relative(io.cwd, file)}\n`,
  );
  return EXIT.ok;
}

function schemaCommand(args: string[], io: CliIO): number {
  const which = args[0];
  const schemas: Record<string, () => unknown> = {
    trace: traceJsonSchema,
    config: () => z.toJSONSchema(configSchema(), { io: 'input', unrepresentable: 'any' }),
    report: () => z.toJSONSchema(ReportSchema, { unrepresentable: 'any' }),
  };
  const make = which ? schemas[which] : undefined;
  if (!make) throw new UsageError('usage: tracejury schema trace|config|report');
  io.stdout.write(JSON.stringify(make(), null, 2) + '\n');
  return EXIT.ok;
}

function diffOneLine(diff: ReportDiff, out: string): string {
  return (
    `tracejury diff: waste ${formatUsd(diff.totals.wasteUsd.base)} → ${formatUsd(diff.totals.wasteUsd.head)}, ` +
    `${plural(diff.signals.new.length, 'new finding')}, ${fmtInt(diff.signals.resolved.length)} resolved, ` +
    `regression gate ${diff.gate.passed ? 'passed' : 'FAILED'} → ${out}\n`
  );
}

function diffCommand(args: string[], io: CliIO): number {
  const { values, positionals } = parseCommandArgs('diff', args, {
    config: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
    limit: { type: 'string' },
  });
  if (positionals.length !== 2)
    throw new UsageError(
      `diff needs two reports, base then head (got ${positionals.length}): tracejury diff <base-report.json> <head-report.json>`,
    );
  const format =
    values.format === undefined && values.out ? formatOfFile(values.out) : formatOf(values.format);
  const limit = limitOf(values.limit);
  const outFile = values.out === undefined ? undefined : path.resolve(io.cwd, values.out);
  if (outFile) checkWritable(outFile, values.out!);
  const config = loadConfig(values.config ? path.resolve(io.cwd, values.config) : undefined, io.cwd);
  for (const w of config.warnings) io.stderr.write(`tracejury: warning: ${w}\n`);
  const base = readReport(positionals[0]!, io.cwd);
  const head = readReport(positionals[1]!, io.cwd);
  const diff = diffReports(base, head, { regression: config.regression });
  const color = Boolean(io.stdout.isTTY) && !io.env.NO_COLOR && !values.out;
  const text =
    format === 'json'
      ? JSON.stringify(diff, null, 2) + '\n'
      : format === 'markdown'
        ? renderDiffMarkdown(diff, limit !== undefined ? { listLimit: limit } : {})
        : renderDiffText(diff, { color, ...(limit !== undefined ? { limit } : {}) });
  if (outFile) {
    try {
      writePieces(outFile, [text]);
    } catch (err) {
      if (!isFsError(err)) throw err;
      throw new UsageError(`--out ${values.out}: cannot write the diff: ${fsErrorReason(err)}`);
    }
    io.stdout.write(diffOneLine(diff, values.out!));
  } else io.stdout.write(text);
  return diff.gate.passed ? EXIT.ok : EXIT.gateFailed;
}

function mergeCommand(args: string[], io: CliIO): number {
  const { values, positionals } = parseCommandArgs('merge', args, {
    format: { type: 'string' },
    out: { type: 'string' },
    limit: { type: 'string' },
  });
  if (positionals.length === 0)
    throw new UsageError(
      'merge needs the partial reports to join: tracejury merge <report.json…> [--out FILE]',
    );
  const format =
    values.format === undefined ? (values.out ? formatOfFile(values.out) : 'json') : formatOf(values.format);
  const limit = limitOf(values.limit);
  const outFile = values.out === undefined ? undefined : path.resolve(io.cwd, values.out);
  if (outFile) checkWritable(outFile, values.out!);
  const report = mergeReports(positionals.map((file) => readReport(file, io.cwd)));
  const color = Boolean(io.stdout.isTTY) && !io.env.NO_COLOR && !values.out;
  const pieces = render(report, format, color, limit);
  if (outFile) {
    try {
      writePieces(outFile, pieces);
    } catch (err) {
      if (!isFsError(err)) throw err;
      throw new UsageError(`--out ${values.out}: cannot write the merged report: ${fsErrorReason(err)}`);
    }
    io.stdout.write(oneLine(report, values.out!));
  } else for (const piece of pieces) io.stdout.write(piece);
  return report.gate.passed ? EXIT.ok : EXIT.gateFailed;
}

const COMMAND_HELP: Record<string, string> = {
  analyze: ANALYZE_HELP,
  diff: DIFF_HELP,
  merge: MERGE_HELP,
  baseline: `${BASELINE_HELP}\n${GLOSSARY}\n`,
  schema: SCHEMA_HELP,
};

/**
 * Every command writes through streams made safe once, here: what a report or trace put in an
 * agent id, a version or a message can neither drive the terminal (control characters are shown;
 * the CLI's own colours pass) nor start a workflow command in the Actions log (`::…` lines are
 * neutralised). Renderers still make each field one line (terminalText); this is the backstop.
 */
function safeIO(io: CliIO): CliIO {
  return { ...io, stdout: safeWriter(io.stdout), stderr: safeWriter(io.stderr) };
}

export async function runCli(argv: string[], given: CliIO): Promise<number> {
  const io = safeIO(given);
  const [command, ...rest] = argv;
  if (command !== undefined && asksForHelp(rest)) {
    io.stdout.write(COMMAND_HELP[command] ?? HELP);
    return EXIT.ok;
  }
  try {
    switch (command) {
      case 'analyze':
        return await analyzeCommand(rest, io);
      case 'baseline':
        return await baselineCommand(rest, io);
      case 'diff':
        return diffCommand(rest, io);
      case 'merge':
        return mergeCommand(rest, io);
      case 'schema':
        return schemaCommand(rest, io);
      case '--version':
      case '-v':
        io.stdout.write(`${VERSION}\n`);
        return EXIT.ok;
      case undefined:
        // No command is a usage error: usage goes to stderr, as every error does.
        io.stderr.write(HELP);
        return EXIT.usage;
      case '--help':
      case '-h':
      case 'help':
        io.stdout.write(HELP);
        return EXIT.ok;
      default:
        throw new UsageError(`unknown command "${command}"; run tracejury --help`);
    }
  } catch (err) {
    // User errors get a message, never a stack trace; anything else is a bug worth a trace.
    const isUser =
      err instanceof UsageError ||
      (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'));
    if (isUser) {
      io.stderr.write(`tracejury: ${(err as Error).message}\n`);
      return EXIT.usage;
    }
    throw err;
  }
}

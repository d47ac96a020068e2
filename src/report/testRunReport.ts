/**
 * Report v1 of a Vitest run: the traces the tests read or captured, with what the detectors found
 * in them, the tribunal's verdicts and session scores, each named by its test, and the tests
 * themselves with their attempts, pass^k and pass@k. Built from the plain JSON each test left in
 * its `task.meta` (so a sharded run merged by `vitest --merge-reports` gives the same report).
 *
 * The gate of a test run is its tests: it fails when a test failed or input could not be read. A
 * finding fails a Vitest run only through a matcher that asserts on it (`toHaveNoSignals`, …): an
 * eval suite may hold recordings that are meant to show a failure.
 */
import type { Severity } from '../detect/signal.js';
import type { Verdict } from '../judge/verdict.js';
import { redact } from '../redact/redact.js';
import { plural } from '../util/thousands.js';
import { formatInputError, type InputError } from '../trace/inputError.js';
import { emptyStats } from '../trace/load.js';
import { createReportAccumulator } from './build.js';
import { meanByK, passAtK, passHatK } from './passK.js';
import type { z } from 'zod';
import type {
  Report,
  ReportSignal,
  SessionScore,
  TestResult,
  TestRun,
  TraceSummary,
  TrajectoryResultSchema,
} from './schema.js';

/** A trace a test read or captured, as its meta carries it from the worker to the reporter. */
export interface TestRunTrace {
  summary: TraceSummary;
  signals: readonly ReportSignal[];
  /** Models of the trace's calls that could not be priced (TraceAnalysis.unpricedModels). */
  unpricedModels?: Readonly<Record<string, number>>;
}

export interface TestRunEntry {
  /** Full name: file > suite > test. */
  name: string;
  /** The test file, relative to the project root. */
  file: string;
  /** The line the test is declared on, when Vitest reports it (includeTaskLocation). */
  line?: number;
  state: 'passed' | 'failed' | 'skipped';
  /** Each attempt (repeats and retries), in order: did it pass? */
  attempts: readonly boolean[];
  passRate?: { required: number; met: boolean };
  errors: readonly string[];
  traces: readonly TestRunTrace[];
  trajectories: readonly z.infer<typeof TrajectoryResultSchema>[];
  verdicts: readonly Verdict[];
  sessions: readonly SessionScore[];
  inputErrors: readonly InputError[];
  /** Where the plugin saved the test's traces (file relative to the project root, line of each). */
  savedTraces?: readonly { id: string; file: string; line: number }[];
}

export interface TestRunOptions {
  failOn: readonly Severity[];
  notes?: readonly string[];
  now?: Date;
}

export function buildTestRunReport(entries: readonly TestRunEntry[], options: TestRunOptions): Report {
  const accumulator = createReportAccumulator();
  const stats = emptyStats();
  const files = new Set<string>();
  const verdicts: Verdict[] = [];
  const sessions: SessionScore[] = [];
  const tests: TestResult[] = [];
  const unknownModels = new Map<string, number>();
  // A recording read twice in one run (describeTraces and loadTraces over one file) is one trace,
  // and one input error: its cost and signals count once, under the first test that read it.
  const seenTraces = new Set<string>();
  const seenErrors = new Set<string>();
  for (const entry of entries) {
    files.add(entry.file);
    for (const e of entry.inputErrors) {
      const key = JSON.stringify([e.file, e.line, e.field, e.message]);
      if (seenErrors.has(key)) continue;
      seenErrors.add(key);
      stats.errorCount++;
      stats.errors.push(e);
    }
    for (const { summary, signals, unpricedModels = {} } of entry.traces) {
      // What it measured too: two traces built by hand with one id in two tests stay two.
      const { file, line, id, steps, tokens, costUsd } = summary;
      const key = JSON.stringify([file, line, id, steps, tokens.input, tokens.output, costUsd]);
      if (seenTraces.has(key)) continue;
      seenTraces.add(key);
      for (const [model, calls] of Object.entries(unpricedModels))
        unknownModels.set(model, (unknownModels.get(model) ?? 0) + calls);
      stats.traces++;
      stats.records++;
      stats.formats[summary.format] = (stats.formats[summary.format] ?? 0) + 1;
      accumulator.addSummary(
        { ...summary, test: entry.name },
        signals.map((s) => ({ ...s, test: entry.name })),
      );
    }
    for (const v of entry.verdicts) verdicts.push({ ...v, test: entry.name } as Verdict);
    for (const s of entry.sessions) sessions.push({ ...s, test: entry.name });
    const n = entry.attempts.length;
    const c = entry.attempts.filter(Boolean).length;
    tests.push({
      name: entry.name,
      file: entry.file,
      ...(entry.line !== undefined ? { line: entry.line } : {}),
      state: entry.state,
      attempts: n,
      passedAttempts: c,
      ...(n > 1 ? { passHatK: passHatK(n, c), passAtK: passAtK(n, c) } : {}),
      ...(entry.passRate ? { passRate: entry.passRate } : {}),
      traces: [...new Set(entry.traces.map((t) => t.summary.id))],
      ...(entry.trajectories.length ? { trajectories: [...entry.trajectories] } : {}),
      ...(entry.errors.length ? { errors: entry.errors.map((e) => redact(e)) } : {}),
      ...(entry.savedTraces?.length ? { savedTraces: [...entry.savedTraces] } : {}),
    });
  }
  stats.files = files.size;
  stats.fileNames = [...files];

  const report = accumulator.finish({
    stats,
    unknownModels,
    failOn: options.failOn,
    verdicts,
    notes: [...(options.notes ?? [])],
    ...(options.now ? { now: options.now } : {}),
  });

  return {
    ...report,
    sessions,
    gate: testRunGate(tests, stats.errorCount, stats.errors[0], options.failOn),
    tests,
    testRun: testRunSummary(tests),
  };
}

/** A test run's gate: its failed tests and its unreadable input; shared with mergeReports. */
export function testRunGate(
  tests: readonly TestResult[],
  errorCount: number,
  firstError: InputError | undefined,
  failOn: readonly Severity[],
): Report['gate'] {
  const failed = tests.filter((t) => t.state === 'failed');
  const reasons: string[] = [];
  if (failed.length > 0) {
    const first = failed[0]!;
    reasons.push(
      `${plural(failed.length, 'test')} of ${tests.length} failed (first: ${first.name}${first.errors?.[0] ? `: ${first.errors[0]}` : ''})`,
    );
  }
  if (errorCount > 0)
    reasons.push(
      `${plural(errorCount, 'input error')}: input that could not be read` +
        (firstError ? ` (first: ${redact(formatInputError(firstError))})` : ''),
    );
  return { passed: reasons.length === 0, reasons, failOn: [...failOn] };
}

/** Counts of the tests, and the mean pass^k / pass@k over those that ran more than once. */
export function testRunSummary(tests: readonly TestResult[]): TestRun {
  const repeated = tests.filter((t) => t.passHatK);
  return {
    tests: tests.length,
    passed: tests.filter((t) => t.state === 'passed').length,
    failed: tests.filter((t) => t.state === 'failed').length,
    skipped: tests.filter((t) => t.state === 'skipped').length,
    repeated: repeated.length,
    passHatK: meanByK(repeated.map((t) => t.passHatK!)),
    passAtK: meanByK(repeated.map((t) => t.passAtK!)),
  };
}

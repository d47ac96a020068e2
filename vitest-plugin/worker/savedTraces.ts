/**
 * The traces of a failing test, kept on disk: a report keeps summaries only, so a test that fails in
 * CI would leave nothing to look at. While a test runs, each trace it captured, was handed by
 * describeTraces or gave a matcher is kept here (references only: the test holds them anyway); when
 * an attempt ends failed (or always, with `saveTraces: 'all'`) they are written, redacted, as native
 * JSONL — one trace a line, readable by `tracejury analyze` and `loadTraces` — to
 * `.tracejury/traces/<test>-<hash>.jsonl`, and the test's meta says which trace is on which line.
 * Only that path crosses to the main process: whole traces never travel in meta.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { redactDeep, type Trace, type TraceAnalysis } from 'tracejury';
import { metaOf, recordAnalysis, type TaskLike } from '../shared/meta.js';
import { TRACES_DIR } from '../shared/workerSettings.js';
import { analyse, workerSettings } from './context.js';

/** The traces of the running attempt of each test, by id and file (a recording kept once). */
const kept = new WeakMap<object, Map<string, Trace>>();
/** Files already written for a test in this run: later attempts append to them. */
const written = new WeakMap<object, { file: string; lines: number }>();

export function keepTrace(task: TaskLike | undefined, trace: Trace, from?: string): void {
  if (!task) return;
  let traces = kept.get(task);
  if (!traces) kept.set(task, (traces = new Map()));
  const key = `${trace.id}\0${from ?? ''}`;
  if (!traces.has(key)) traces.set(key, trace);
}

/** What a matcher analysed: its summary and signals for the report, the whole trace kept for saving. */
export function recordTrace(task: TaskLike | undefined, analysis: TraceAnalysis): void {
  recordAnalysis(task, analysis);
  keepTrace(task, analysis.trace, analysis.summary.file);
}

/**
 * At the end of an attempt: every trace the test captured (captureTrace, captureTraceWithResult,
 * a receiver's waitForTrace) or was handed by describeTraces goes into the run's report with its
 * cost, waste and findings, whether or not a matcher looked at it: a test that asserts only on the
 * agent's result still spent what its run cost. A trace a matcher already analysed is not analysed
 * again (the analyser keeps one analysis per trace object) and is recorded once.
 */
export function reportKeptTraces(task: TaskLike): void {
  const traces = kept.get(task);
  if (!traces) return;
  // Every kept trace was read by tracejury's own importers, so it is valid; a detector that throws
  // is recorded by the runner, not thrown here.
  for (const trace of traces.values()) recordAnalysis(task, analyse(trace));
}

/** The parts of a Vitest test task that name it (the same in Vitest 4 and 5). */
interface NamedTask extends TaskLike {
  name?: string;
  suite?: { name?: string; suite?: unknown } | undefined;
  file?: { name?: string };
}

/** `file > suite > test`, as the report names the test. */
export function fullName(task: NamedTask): string {
  const parts = [task.name ?? 'test'];
  // The chain of suites ends at the file's own suite, which the file's name stands for.
  for (let s = task.suite; s && s !== task.file && s.name; s = s.suite as NamedTask['suite'])
    parts.unshift(s.name);
  if (task.file?.name) parts.unshift(task.file.name);
  return parts.join(' > ');
}

/** A file name from a test name: letters, digits and dashes, then a hash that keeps two tests apart. */
function traceFileName(testName: string): string {
  const slug = testName
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  const hash = createHash('sha256').update(testName).digest('hex').slice(0, 8);
  return `${slug || 'test'}-${hash}.jsonl`;
}

/**
 * At the end of an attempt: writes its traces when it failed (or every attempt, with 'all') and
 * forgets them either way.
 */
export function saveAttemptTraces(task: TaskLike, failed: boolean): void {
  const traces = kept.get(task);
  kept.delete(task);
  // The plugin always says (default 'failed'); matchers wired by hand, with no report to link, save nothing.
  const mode = workerSettings().saveTraces ?? false;
  if (!traces || traces.size === 0 || mode === false || (mode === 'failed' && !failed)) return;
  const { root, stateDir } = workerSettings();
  const previous = written.get(task);
  const file = previous?.file ?? path.join(stateDir, TRACES_DIR, traceFileName(fullName(task as NamedTask)));
  const lines = [...traces.values()].map((t) => JSON.stringify(redactDeep(t)));
  mkdirSync(path.dirname(file), { recursive: true });
  // The first write of this run replaces what an earlier run left; later attempts add to it.
  (previous ? appendFileSync : writeFileSync)(file, lines.map((l) => `${l}\n`).join(''));
  const first = (previous?.lines ?? 0) + 1;
  written.set(task, { file, lines: first - 1 + lines.length });
  const shown = path.relative(root, file).split(path.sep).join('/');
  const meta = metaOf(task);
  meta.savedTraces = [
    ...(meta.savedTraces ?? []),
    ...[...traces.values()].map((t, i) => ({ id: t.id, file: shown, line: first + i })),
  ];
}

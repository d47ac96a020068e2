/**
 * A report's runs as the regression test sees them: for each quantity, one value per run (a
 * trace, or an attempt of a Vitest test) with the task the run attempted, so that base and head
 * can be compared task by task.
 *
 * A run's task is, in order: its Vitest test (`test: <name>`; a test run's trace ids change every
 * run), the task its recording names (`task: <traces[].task>`), else the trace itself
 * (`trace: <file> <id>`: the same recording analysed on both sides, as a deterministic replay is).
 * Keys of different kinds never match.
 *
 * Success comes from one source per report, the first it has: the attempts of its Vitest tests,
 * the outcomes its traces recorded, or its judges' verdicts (an indeterminate verdict is not a
 * pass: the tribunal fails closed).
 */
import { severityRank, type Severity } from '../detect/signal.js';
import type { Report, TraceSummary } from '../report/schema.js';

export type TaskKind = 'test' | 'task' | 'trace';

export interface Run {
  /** `<kind>\u0000<name>`: what pairs it with runs of the other side. */
  task: string;
  value: number;
}

export type SuccessSource = 'tests' | 'outcomes' | 'verdicts';

export interface SuccessRuns {
  source: SuccessSource;
  runs: Run[];
  /** The agent of each run (traces' agentId; tests have none), in the order of `runs`. */
  agents: (string | undefined)[];
}

/** What a side's LLM calls say about its cost: every call priced, some, or none. */
export interface CostCoverage {
  llmCalls: number;
  /** Calls of models with no price and no recorded cost. */
  unpriced: number;
  /** Calls with no token counts and no recorded cost (priced at $0 from nothing). */
  unmeasured: number;
  known: 'all' | 'some' | 'none';
}

export interface SideRuns {
  success: SuccessRuns | undefined;
  /** Per trace: 1 when it has a finding at or above the policy's severity. */
  findings: Run[];
  /** Per trace: the detectors with a finding on it. */
  detectorsOf: Set<string>[];
  waste: Run[];
  cost: Run[];
  /** The judges' score per verdict (indeterminate verdicts left out). */
  judgeScore: Run[];
  coverage: CostCoverage;
}

const SEP = '\u0000';
export const taskKey = (kind: TaskKind, name: string) => `${kind}${SEP}${name}`;

/** The kind and name of a task key ("task", "3"). */
export function splitTask(key: string): { kind: TaskKind; name: string } {
  const i = key.indexOf(SEP);
  return { kind: key.slice(0, i) as TaskKind, name: key.slice(i + 1) };
}

export function traceTask(t: Pick<TraceSummary, 'test' | 'task' | 'file' | 'id'>): string {
  if (t.test !== undefined) return taskKey('test', t.test);
  if (t.task !== undefined) return taskKey('task', t.task);
  return taskKey('trace', `${t.file} ${t.id}`);
}

/**
 * LLM calls of a trace whose cost is unknown. Reports before schema 1.4 do not count calls with no
 * token counts: a trace with calls, no tokens and no cost there is taken as all such calls.
 */
function unmeasuredOf(t: TraceSummary, legacy: boolean): number {
  if (t.unmeasuredLlmCalls !== undefined || !legacy) return t.unmeasuredLlmCalls ?? 0;
  const silent = t.tokens.input + t.tokens.output === 0 && t.costUsd === 0;
  return silent ? Math.max(0, t.llmCalls - t.unpricedLlmCalls) : 0;
}

function costCoverage(report: Pick<Report, 'traces' | 'schemaMinor'>): CostCoverage {
  const legacy = (report.schemaMinor ?? 0) < 4;
  let llmCalls = 0;
  let unpriced = 0;
  let unmeasured = 0;
  for (const t of report.traces) {
    llmCalls += t.llmCalls;
    unpriced += t.unpricedLlmCalls;
    unmeasured += unmeasuredOf(t, legacy);
  }
  const unknown = unpriced + unmeasured;
  return {
    llmCalls,
    unpriced,
    unmeasured,
    known: unknown === 0 ? 'all' : unknown >= llmCalls ? 'none' : 'some',
  };
}

function successRuns(
  report: Report,
  traceOf: (id: string) => TraceSummary | undefined,
): SuccessRuns | undefined {
  const attempted = (report.tests ?? []).filter((t) => t.attempts > 0);
  if (attempted.length > 0) {
    const runs: Run[] = [];
    for (const t of attempted)
      for (let i = 0; i < t.attempts; i++)
        runs.push({ task: taskKey('test', t.name), value: i < t.passedAttempts ? 1 : 0 });
    return { source: 'tests', runs, agents: runs.map(() => undefined) };
  }
  const recorded = report.traces.filter((t) => t.outcome !== undefined);
  if (recorded.length > 0)
    return {
      source: 'outcomes',
      runs: recorded.map((t) => ({ task: traceTask(t), value: t.outcome!.success ? 1 : 0 })),
      agents: recorded.map((t) => t.agentId),
    };
  if (report.verdicts.length > 0) {
    const runs: Run[] = [];
    const agents: (string | undefined)[] = [];
    for (const v of report.verdicts) {
      const t = traceOf(v.traceId);
      runs.push({ task: verdictTask(v, t), value: v.passed && !v.indeterminate ? 1 : 0 });
      agents.push(t?.agentId);
    }
    return { source: 'verdicts', runs, agents };
  }
  return undefined;
}

function verdictTask(v: Report['verdicts'][number], t: TraceSummary | undefined): string {
  if (v.test !== undefined) return taskKey('test', v.test);
  return t ? traceTask(t) : taskKey('trace', v.traceId);
}

/** The report's runs for every quantity; `minSeverity` decides which findings `findings` counts. */
export function sideRuns(report: Report, minSeverity: Severity): SideRuns {
  const index = new Map<string, number>();
  const firstById = new Map<string, number>();
  report.traces.forEach((t, i) => {
    index.set(`${t.file}${SEP}${t.id}${SEP}${t.test ?? ''}`, i);
    if (!firstById.has(t.id)) firstById.set(t.id, i);
  });
  const traceOf = (id: string) => {
    const i = firstById.get(id);
    return i === undefined ? undefined : report.traces[i];
  };
  const n = report.traces.length;
  const flagged = new Uint8Array(n);
  const waste = new Float64Array(n);
  const detectorsOf = report.traces.map(() => new Set<string>());
  const min = severityRank(minSeverity);
  for (const s of report.signals) {
    if (s.status !== 'finding') continue;
    // As the report keys traces: file + id (+ test); a signal without a file joins the first of its id.
    const i =
      s.file !== undefined
        ? index.get(`${s.file}${SEP}${s.traceId}${SEP}${s.test ?? ''}`)
        : firstById.get(s.traceId);
    if (i === undefined) continue;
    if (severityRank(s.severity) >= min) flagged[i] = 1;
    if (s.wasteUsd) waste[i]! += s.wasteUsd;
    detectorsOf[i]!.add(s.detector);
  }
  const tasks = report.traces.map(traceTask);
  const judged = report.verdicts.filter((v) => !v.indeterminate);
  return {
    success: successRuns(report, traceOf),
    findings: tasks.map((task, i) => ({ task, value: flagged[i]! })),
    detectorsOf,
    waste: tasks.map((task, i) => ({ task, value: waste[i]! })),
    cost: tasks.map((task, i) => ({ task, value: report.traces[i]!.costUsd })),
    judgeScore: judged.map((v) => ({ task: verdictTask(v, traceOf(v.traceId)), value: v.score })),
    coverage: costCoverage(report),
  };
}

/** A detector's share of runs: 1 for each trace with a finding of it. */
export function detectorRuns(side: SideRuns, detector: string): Run[] {
  return side.findings.map((r, i) => ({ task: r.task, value: side.detectorsOf[i]!.has(detector) ? 1 : 0 }));
}

/**
 * What a test leaves for the reporter in `task.meta.tracejury`: plain JSON (Vitest sends meta from
 * the worker to the main process, and the blob reporter keeps it for --merge-reports). The traces
 * are kept as the report keeps them — summary and signals — never whole.
 */
import type { SessionScore, TestRunTrace, TraceAnalysis, Verdict } from 'tracejury';

export interface TrajectoryRecord {
  traceId: string;
  mode: 'strict' | 'unordered' | 'subset' | 'superset';
  pass: boolean;
  missing: number;
  extra: number;
  mismatched: number;
  outOfOrder: number;
}

export interface TestMeta {
  traces: TestRunTrace[];
  trajectories: TrajectoryRecord[];
  verdicts: Verdict[];
  sessions: SessionScore[];
  /** Each attempt (repeats, retries) in order: did it pass? */
  attempts: boolean[];
  passRate?: { required: number; met: boolean };
  inputErrors: { file: string; line?: number; field?: string; message: string }[];
  /** Where the worker wrote this test's traces (saveTraces): which trace is on which line of which file. */
  savedTraces?: { id: string; file: string; line: number }[];
}

export const META_KEY = 'tracejury';

/** The part of a Vitest task this reads and writes (the same in Vitest 4 and 5). */
export interface TaskLike {
  type?: string;
  meta: Record<string, unknown>;
}

export function metaOf(task: TaskLike): TestMeta {
  const existing = task.meta[META_KEY] as TestMeta | undefined;
  if (existing) return existing;
  const fresh: TestMeta = {
    traces: [],
    trajectories: [],
    verdicts: [],
    sessions: [],
    attempts: [],
    inputErrors: [],
  };
  task.meta[META_KEY] = fresh;
  return fresh;
}

/** A trace a matcher looked at, once per test however many matchers look at it. */
export function recordAnalysis(task: TaskLike | undefined, analysis: TraceAnalysis): void {
  if (!task) return;
  const meta = metaOf(task);
  if (
    meta.traces.some((t) => t.summary.id === analysis.summary.id && t.summary.file === analysis.summary.file)
  )
    return;
  meta.traces.push({
    summary: analysis.summary,
    signals: analysis.signals,
    // Only when there are some: meta travels from the worker to the reporter with every test.
    ...(Object.keys(analysis.unpricedModels).length > 0 ? { unpricedModels: analysis.unpricedModels } : {}),
  });
}

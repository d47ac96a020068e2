/**
 * Per-agent run baselines: for each agentId + agentVersion, the run-level measurements of its most
 * recent successful runs (a window of 50 by default). Six detectors compare a run against the P75
 * of these once enough runs exist (20 by default), and use static fallbacks before that.
 * The functions here are pure; reading and writing `.tracejury/baselines.json` is at the edge.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { BaselineLookup, BaselineMetric, BaselineSource, BaselineValue } from '../detect/detector.js';
import { UsageError } from '../trace/paths.js';
import { fsErrorReason, isFsError } from '../util/fsError.js';
import { measureTrace, parseTime } from '../trace/measure.js';
import type { Trace } from '../trace/schema.js';
import { percentile } from './percentile.js';
import { dict, own } from '../util/dict.js';

export const BASELINE_METRICS: readonly BaselineMetric[] = [
  'stepCount',
  'maxStepDurationMs',
  'maxPromptTokens',
  'llmToolRatio',
  'totalTokens',
  'durationMs',
];

const RunSchema = z.object({
  traceId: z.string(),
  /** The run's own time: the trace's startedAt, else its endedAt. Orders the window. */
  runAt: z.string().optional(),
  /** When a run without a usable time of its own was recorded; orders it instead of runAt. */
  recordedAt: z.string().optional(),
  metrics: z.record(z.string(), z.number()),
});
export type BaselineRun = z.infer<typeof RunSchema>;

const AgentsSchema = z.record(z.string(), z.object({ runs: z.array(RunSchema) }));

/**
 * Version 1 keyed agents `${agentId}@${agentVersion}`, so agent `x@1` without a version and agent
 * `x` at version `1` shared a key. Version 2 escapes `%` and `@` in the agent id (see agentKey);
 * version 1 files are migrated when read.
 */
export const BaselineFileSchema = z.object({
  version: z.union([z.literal(1), z.literal(2)]),
  agents: AgentsSchema,
});
export interface BaselineFile {
  version: 2;
  agents: z.infer<typeof AgentsSchema>;
}

export const DEFAULT_BASELINE_FILE = 'baselines.json';

export function emptyBaselines(): BaselineFile {
  return { version: 2, agents: {} };
}

/**
 * The store key of an agent + version: the id with `%` and `@` percent-escaped, then `@version`
 * when there is one. The first raw `@` is therefore always the separator, so no two agents share
 * a key, and the common ids (`bot`, `bot@1.2`) read as before.
 */
export function agentKey(agentId: string, agentVersion: string | undefined): string {
  const id = agentId.replace(/%/g, '%25').replace(/@/g, '%40');
  return agentVersion ? `${id}@${agentVersion}` : id;
}

/**
 * A store key as people read it: the agent id unescaped, then `@version`; a version that already
 * names the agent (Langfuse's `release: docs-assistant@2.3.1` of agent `docs-assistant`) is shown
 * alone rather than as `docs-assistant@docs-assistant@2.3.1`.
 */
export function agentLabel(key: string): string {
  const at = key.indexOf('@');
  const id = decodeURIComponent(at < 0 ? key : key.slice(0, at));
  if (at < 0) return id;
  const version = key.slice(at + 1);
  return version.startsWith(`${id}@`) ? version : `${id}@${version}`;
}

/**
 * A version 1 key back to its agent. It was ambiguous when the id held an `@`; it is read as
 * `id@version`, split at the last `@` (versions rarely contain one), as the version 1 lookup for a
 * versioned agent produced it.
 */
function legacyKeyToAgentKey(key: string): string {
  const at = key.lastIndexOf('@');
  return at > 0 ? agentKey(key.slice(0, at), key.slice(at + 1)) : agentKey(key, undefined);
}

export function migrateBaselines(file: z.infer<typeof BaselineFileSchema>): BaselineFile {
  if (file.version === 2) return { version: 2, agents: file.agents };
  const agents: BaselineFile['agents'] = dict();
  for (const [key, value] of Object.entries(file.agents)) agents[legacyKeyToAgentKey(key)] = value;
  return { version: 2, agents };
}

/** The run-level values a baseline keeps; metrics a trace cannot measure (no timings) are left out. */
export function runMetrics(trace: Trace): Partial<Record<BaselineMetric, number>> {
  const m = measureTrace(trace);
  const out: Partial<Record<BaselineMetric, number>> = {
    stepCount: m.stepCount,
    maxPromptTokens: m.maxPromptTokens,
    llmToolRatio: m.llmToolRatio,
    totalTokens: m.inputTokens + m.outputTokens,
  };
  if (m.maxStepDurationMs !== undefined) out.maxStepDurationMs = m.maxStepDurationMs;
  if (m.durationMs !== undefined) out.durationMs = m.durationMs;
  return out;
}

/**
 * Where a run sits in the window: its own time, else when it was recorded. Runs from version 1
 * files have neither and count as older than every dated run (they were recorded before any).
 */
const sortTime = (run: BaselineRun): number =>
  parseTime(run.runAt) ?? parseTime(run.recordedAt) ?? Number.NEGATIVE_INFINITY;

/**
 * The same run again: same trace id and same run time (agent and version are the key already).
 * Trace ids alone are not unique across files (τ-bench's `task-N-trial-M` repeats in every
 * experiment), so different runs sharing an id are kept apart. A version 1 run has no time, so it
 * matches by trace id alone.
 */
const sameRun = (kept: BaselineRun, added: BaselineRun): boolean =>
  kept.traceId === added.traceId &&
  (kept.runAt === added.runAt || (kept.runAt === undefined && kept.recordedAt === undefined));

/**
 * Adds runs to an agent's runs and keeps the `window` most recent by run time (stable: runs with
 * equal times keep the order they were recorded in). A run recorded again replaces its metrics
 * but keeps its place: a dated run keeps its date, an undated one its first recordedAt.
 */
function mergeRuns(
  kept: readonly BaselineRun[],
  added: readonly BaselineRun[],
  window: number,
): BaselineRun[] {
  const runs = [...kept];
  for (const run of added) {
    const i = runs.findIndex((r) => sameRun(r, run));
    if (i < 0) {
      runs.push(run);
      continue;
    }
    const recordedAt =
      parseTime(run.runAt) === undefined ? (runs[i]!.recordedAt ?? run.recordedAt) : undefined;
    const next: BaselineRun = { traceId: run.traceId, metrics: run.metrics };
    if (run.runAt !== undefined) next.runAt = run.runAt;
    if (recordedAt !== undefined) next.recordedAt = recordedAt;
    runs[i] = next;
  }
  return runs
    .map((run, i) => ({ run, i, t: sortTime(run) }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .map((x) => x.run)
    .slice(-window);
}

/** Adds the runs of `additions` (another store, e.g. built from new traces) to `store`. */
export function mergeBaselines(store: BaselineFile, additions: BaselineFile, window = 50): BaselineFile {
  const agents: BaselineFile['agents'] = Object.assign(dict(), store.agents);
  for (const [key, { runs }] of Object.entries(additions.agents))
    agents[key] = { runs: mergeRuns(agents[key]?.runs ?? [], runs, window) };
  return { version: 2, agents };
}

/**
 * Adds the successful runs among `traces` and keeps, per agent, the `window` most recent by run
 * time (the trace's startedAt, else endedAt). A trace with neither counts as run at `now`, when
 * it is recorded.
 */
export function updateBaselines(
  store: BaselineFile,
  traces: Iterable<Trace>,
  window = 50,
  now: Date = new Date(),
): BaselineFile {
  const additions: BaselineFile['agents'] = dict();
  for (const trace of traces) {
    if (trace.status !== 'ok') continue;
    (additions[agentKey(trace.agentId, trace.agentVersion)] ??= { runs: [] }).runs.push(
      baselineRunOf(trace, now),
    );
  }
  return mergeBaselines(store, { version: 2, agents: additions }, window);
}

/**
 * What a baseline keeps of one run: its metrics and its time (the trace's startedAt, else
 * endedAt); a run with no usable time of its own is placed at `now`, when it is recorded.
 */
export function baselineRunOf(trace: Trace, now: Date): BaselineRun {
  const runAt = trace.startedAt ?? trace.endedAt;
  const run: BaselineRun = { traceId: trace.id, metrics: runMetrics(trace) };
  if (runAt !== undefined) run.runAt = runAt;
  if (parseTime(runAt) === undefined) run.recordedAt = now.toISOString();
  return run;
}

/** The values of `metric` over the `window` most recent runs of an agent key that measured it. */
export function baselineValues(
  store: BaselineFile,
  key: string,
  metric: BaselineMetric,
  window: number,
): number[] {
  const runs = own(store.agents, key)?.runs.slice(-window) ?? [];
  return runs.map((r) => r.metrics[metric]).filter((v): v is number => typeof v === 'number');
}

/**
 * A lookup that answers only once `minRuns` runs measured the metric; its values name `source`
 * (the store by default; the run's input or the base report for baselines gathered in a run).
 */
export function baselineLookup(
  store: BaselineFile,
  minRuns = 20,
  window = 50,
  source: BaselineSource = 'store',
): BaselineLookup {
  const cache = new Map<string, BaselineValue | undefined>();
  return (agentId, agentVersion, metric) => {
    const key = `${agentKey(agentId, agentVersion)}\u0000${metric}`;
    if (cache.has(key)) return cache.get(key);
    const values = baselineValues(store, agentKey(agentId, agentVersion), metric, window);
    const value =
      values.length >= minRuns ? { p75: percentile(values, 75), runs: values.length, source } : undefined;
    cache.set(key, value);
    return value;
  };
}

/**
 * The baselines a run knows before its first trace: the store's, then, for agents the store has
 * too few runs of, the base branch's report's.
 */
export function knownBaselines(
  store: BaselineFile,
  baseReport: BaselineFile | undefined,
  { minRuns, window }: { minRuns: number; window: number },
): BaselineLookup {
  const fromStore = baselineLookup(store, minRuns, window);
  return baseReport
    ? firstBaseline(fromStore, baselineLookup(baseReport, minRuns, window, 'base-report'))
    : fromStore;
}

/** The first of `lookups` that has a baseline for the agent and metric. */
export function firstBaseline(...lookups: BaselineLookup[]): BaselineLookup {
  return (agentId, agentVersion, metric) => {
    for (const lookup of lookups) {
      const value = lookup(agentId, agentVersion, metric);
      if (value !== undefined) return value;
    }
    return undefined;
  };
}

export function readBaselineFile(file: string): BaselineFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    // No baselines yet is the normal start; anything else (a directory in the way, no permission,
    // --state-dir pointing at a file) would silently turn the adaptive rules off.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return emptyBaselines();
    throw new UsageError(`${file}: cannot read the baselines: ${fsErrorReason(err)}; check --state-dir`);
  }
  // A damaged file is derived data: deleting it and rebuilding it from traces loses nothing.
  const rebuild = `delete it and run \`tracejury baseline update <traces>\` to build it again`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`${file}: not valid JSON; ${rebuild}`);
  }
  const parsed = BaselineFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `${file}: ${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}; ${rebuild}`,
    );
  }
  return migrateBaselines(parsed.data);
}

export function writeBaselineFile(file: string, store: BaselineFile): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(tmp, JSON.stringify(store, null, 1) + '\n');
    renameSync(tmp, file);
  } catch (err) {
    if (!isFsError(err)) throw err;
    throw new UsageError(`${file}: cannot write the baselines: ${fsErrorReason(err)}; check --state-dir`);
  }
}

export interface BaselineLockOptions {
  /** How long to wait for another update to finish (default 10 s). */
  timeoutMs?: number;
  /** A lock older than this is stale and taken over (default 10 min). */
  staleMs?: number;
}

/**
 * Runs `fn` (read, update, write the baselines) holding `<file>.lock`, so that two updates at once
 * do not overwrite each other's runs. The lock is created exclusively (`wx`); while another
 * process holds it, this waits with a short backoff up to `timeoutMs`, then fails naming the lock.
 * A lock older than `staleMs`, or held by a process of this host that is gone, is taken over.
 */
export async function withBaselineLock<T>(
  file: string,
  fn: () => T | Promise<T>,
  options: BaselineLockOptions = {},
): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const staleMs = options.staleMs ?? 10 * 60_000;
  const owner = JSON.stringify({ pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') });
  let delay = 10;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
  } catch (err) {
    if (!isFsError(err)) throw err;
    throw new UsageError(`${lock}: cannot lock the baselines: ${fsErrorReason(err)}; check --state-dir`);
  }
  for (;;) {
    try {
      writeFileSync(lock, owner, { flag: 'wx' });
      break;
    } catch (err) {
      if (!isFsError(err)) throw err;
      if (err.code !== 'EEXIST')
        throw new UsageError(`${lock}: cannot lock the baselines: ${fsErrorReason(err)}; check --state-dir`);
    }
    if (takeOverStaleLock(lock, staleMs)) continue;
    const left = deadline - Date.now();
    if (left <= 0)
      throw new UsageError(
        `${lock}: another \`tracejury baseline update\` is running, or a stale lock: if none is running, delete ${lock}`,
      );
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay * (1 + Math.random()), left)));
    delay = Math.min(delay * 2, 200);
  }
  try {
    return await fn();
  } finally {
    // Only our own lock: had this run outlived staleMs, another update may hold it now.
    try {
      if (readFileSync(lock, 'utf8') === owner) rmSync(lock, { force: true });
    } catch {
      // Already gone.
    }
  }
}

function pidAlive(pid: unknown): boolean | undefined {
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes `lock` when it is stale; true when the caller should try to create it again at once. */
function takeOverStaleLock(lock: string, staleMs: number): boolean {
  let text: string;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(lock).mtimeMs;
    text = readFileSync(lock, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
  let holder: { pid?: unknown; host?: unknown } = {};
  try {
    holder = JSON.parse(text) as typeof holder;
  } catch {
    // Being written right now, or not ours: judge by age alone.
  }
  const gone = holder.host === hostname() && pidAlive(holder.pid) === false;
  if (!gone && Date.now() - mtimeMs <= staleMs) return false;
  // Move it aside rather than delete it: if another update replaced the stale lock in the
  // meantime, its lock is put back instead of lost.
  const aside = `${lock}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(lock, aside);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
  try {
    if (readFileSync(aside, 'utf8') !== text) linkSync(aside, lock);
  } catch {
    // A newer lock exists already; it stands.
  } finally {
    rmSync(aside, { force: true });
  }
  return true;
}

/** The store keys of `agent`: its key without a version, and the same id at every version. */
export function keysOfAgent(store: BaselineFile, agent: string): string[] {
  const bare = agentKey(agent, undefined);
  // An argument that is a store key already (`bot@1.2`), or a key as `baseline show` prints it
  // (agentLabel), matches that key.
  return Object.keys(store.agents).filter(
    (k) => k === agent || k === bare || k.startsWith(`${bare}@`) || agentLabel(k) === agent,
  );
}

export interface AgentBaselineSummary {
  /** The store key: agent id (with `%` and `@` escaped), then `@version` when there is one. */
  agent: string;
  /** Runs in the window. */
  runs: number;
  /** True once `minRuns` runs exist: the baseline detectors then compare against the P75s. */
  active: boolean;
  /** P75 of each metric over the window's runs that measured it. */
  p75: Partial<Record<BaselineMetric, number>>;
  /** Runs that measured each metric (durations need timings). */
  measured: Partial<Record<BaselineMetric, number>>;
  /** The newest run's time, when it has one. */
  lastRunAt?: string;
}

/** What `tracejury baseline show` prints: per agent key, its runs, P75s and whether it is active. */
export function summariseBaselines(
  store: BaselineFile,
  minRuns = 20,
  window = 50,
  only?: readonly string[],
): AgentBaselineSummary[] {
  return Object.entries(store.agents)
    .filter(([key]) => only === undefined || only.includes(key))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([agent, { runs: all }]) => {
      const runs = all.slice(-window);
      const p75: AgentBaselineSummary['p75'] = {};
      const measured: AgentBaselineSummary['measured'] = {};
      for (const metric of BASELINE_METRICS) {
        const values = baselineValues(store, agent, metric, window);
        if (values.length === 0) continue;
        p75[metric] = percentile(values, 75);
        measured[metric] = values.length;
      }
      const last = runs[runs.length - 1];
      const lastRunAt = last?.runAt ?? last?.recordedAt;
      return {
        agent,
        runs: runs.length,
        active: runs.length >= minRuns,
        p75,
        measured,
        ...(lastRunAt !== undefined ? { lastRunAt } : {}),
      };
    });
}

/** The store without the runs of `keys` (every agent when `keys` is undefined). */
export function resetBaselines(store: BaselineFile, keys?: readonly string[]): BaselineFile {
  if (keys === undefined) return emptyBaselines();
  const agents: BaselineFile['agents'] = dict();
  for (const [key, value] of Object.entries(store.agents)) if (!keys.includes(key)) agents[key] = value;
  return { version: 2, agents };
}

/**
 * Notes for a report: each agent of the run whose baseline has some runs but fewer than `minRuns`
 * (its baseline detectors still use static thresholds), and, when the store has baselines at all,
 * how many of the run's agents have none.
 */
export function baselineNotes(
  store: BaselineFile,
  agentsSeen: Iterable<string>,
  { minRuns, window }: { minRuns: number; window: number },
): string[] {
  const notes: string[] = [];
  const none: string[] = [];
  let below = 0;
  for (const key of [...agentsSeen].sort()) {
    const runs = Math.min(own(store.agents, key)?.runs.length ?? 0, window);
    if (runs >= minRuns) continue;
    if (runs === 0) {
      none.push(key);
      continue;
    }
    below++;
    if (below <= 10) notes.push(`${key}: ${runs} of ${minRuns} runs — static thresholds until ${minRuns}`);
  }
  if (below > 10) notes.push(`${below - 10} more agents have fewer than ${minRuns} baseline runs`);
  if (none.length > 0 && Object.keys(store.agents).length > 0) {
    const n = none.length;
    notes.push(
      `${n === 1 ? `agent ${none[0]} has` : `${n} agents (e.g. ${none[0]}) have`} no baseline runs: static thresholds ` +
        `(\`tracejury baseline update\` learns them; \`baseline show\` lists the agents that have one)`,
    );
  }
  return notes;
}

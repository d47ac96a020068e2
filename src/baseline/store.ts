/**
 * Per-agent run baselines: for each agentId + agentVersion, the run-level measurements of its most
 * recent successful runs (a window of 50 by default). Six detectors compare a run against the P75
 * of these once enough runs exist (20 by default), and use static fallbacks before that.
 * The functions here are pure; reading and writing `.tracejury/baselines.json` is at the edge.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { BaselineMetric, BaselineValue } from '../detect/detector.js';
import { UsageError } from '../trace/paths.js';
import { fsErrorReason, isFsError } from '../util/fsError.js';
import { measureTrace } from '../trace/measure.js';
import type { Trace } from '../trace/schema.js';
import { percentile } from './percentile.js';

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
  metrics: z.record(z.string(), z.number()),
});

export const BaselineFileSchema = z.object({
  version: z.literal(1),
  agents: z.record(z.string(), z.object({ runs: z.array(RunSchema) })),
});
export type BaselineFile = z.infer<typeof BaselineFileSchema>;

export const DEFAULT_BASELINE_FILE = 'baselines.json';

export function emptyBaselines(): BaselineFile {
  return { version: 1, agents: {} };
}

export function agentKey(agentId: string, agentVersion: string | undefined): string {
  return agentVersion ? `${agentId}@${agentVersion}` : agentId;
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

/** Adds the successful runs among `traces` and keeps the newest `window` per agent. */
export function updateBaselines(store: BaselineFile, traces: Iterable<Trace>, window = 50): BaselineFile {
  const agents: BaselineFile['agents'] = { ...store.agents };
  for (const trace of traces) {
    if (trace.status !== 'ok') continue;
    const key = agentKey(trace.agentId, trace.agentVersion);
    const runs = [...(agents[key]?.runs ?? [])].filter((r) => r.traceId !== trace.id);
    runs.push({ traceId: trace.id, metrics: runMetrics(trace) });
    agents[key] = { runs: runs.slice(-window) };
  }
  return { version: 1, agents };
}

export interface BaselineLookup {
  (agentId: string, agentVersion: string | undefined, metric: BaselineMetric): BaselineValue | undefined;
}

/** A lookup that answers only once `minRuns` runs measured the metric. */
export function baselineLookup(store: BaselineFile, minRuns = 20, window = 50): BaselineLookup {
  const cache = new Map<string, BaselineValue | undefined>();
  return (agentId, agentVersion, metric) => {
    const key = `${agentKey(agentId, agentVersion)}\u0000${metric}`;
    if (cache.has(key)) return cache.get(key);
    const runs = store.agents[agentKey(agentId, agentVersion)]?.runs.slice(-window) ?? [];
    const values = runs.map((r) => r.metrics[metric]).filter((v): v is number => typeof v === 'number');
    const value = values.length >= minRuns ? { p75: percentile(values, 75), runs: values.length } : undefined;
    cache.set(key, value);
    return value;
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
  return parsed.data;
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

/**
 * Reading whether a run succeeded from what a recording says, one small function per source, so
 * that every importer maps its labels the same documented way (docs/inputs.md, "Outcomes").
 */
import { isRecord } from './importer.js';
import type { Outcome } from './schema.js';

/** τ-bench counts a task solved when its reward is 1 (within 1e-6, as its own `is_successful`). */
export function outcomeFromTauReward(reward: unknown): Outcome | undefined {
  if (typeof reward !== 'number' || !Number.isFinite(reward)) return undefined;
  return { success: Math.abs(reward - 1) <= 1e-6, score: reward, source: 'tau-bench reward' };
}

/**
 * Who&When logs are failure-attribution cases: `is_correct` says whether the final answer matched
 * `ground_truth`; a log without it but with a `mistake_agent` is a run the benchmark labelled as
 * failed (it names the agent that caused the failure). `is_corrected` (hand-crafted set) is not
 * read: it does not say whether the run solved its task.
 */
export function outcomeFromWhoAndWhen(log: Record<string, unknown>): Outcome | undefined {
  if (typeof log.is_correct === 'boolean')
    return { success: log.is_correct, source: 'who-and-when is_correct' };
  if (typeof log.mistake_agent === 'string' && log.mistake_agent.trim() !== '')
    return { success: false, source: 'who-and-when mistake_agent' };
  return undefined;
}

/** `true`/`false`, or the strings a YAML/JSON writer might use for them. */
function asBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  return undefined;
}

function asScore(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/**
 * A native trace's `outcome`: the schema's `{ success, score?, source }` (source defaults to
 * "native outcome"), or a bare boolean; else a top-level `success` boolean. Anything else is left
 * for the schema to reject, so a malformed outcome is an input error, not silently dropped.
 */
export function normaliseNativeOutcome(trace: Record<string, unknown>): Record<string, unknown> {
  const o = trace.outcome;
  if (typeof o === 'boolean') return { ...trace, outcome: { success: o, source: 'native outcome' } };
  if (isRecord(o) && o.source === undefined) return { ...trace, outcome: { ...o, source: 'native outcome' } };
  if (o === undefined && typeof trace.success === 'boolean')
    return { ...trace, outcome: { success: trace.success, source: 'native success' } };
  return trace;
}

export const OTEL_OUTCOME_SUCCESS = 'tracejury.outcome.success';
export const OTEL_OUTCOME_SCORE = 'tracejury.outcome.score';

/** The root span's `tracejury.outcome.success` (boolean) and optional `tracejury.outcome.score`. */
export function outcomeFromSpanAttributes(attrs: Record<string, unknown>): Outcome | undefined {
  const success = asBoolean(attrs[OTEL_OUTCOME_SUCCESS]);
  if (success === undefined) return undefined;
  const score = asScore(attrs[OTEL_OUTCOME_SCORE]);
  return { success, ...(score !== undefined ? { score } : {}), source: `otel ${OTEL_OUTCOME_SUCCESS}` };
}

/** Langfuse score names that plainly mean "the run succeeded". */
const LANGFUSE_SUCCESS_SCORES = new Set(['success', 'task_success', 'task-success', 'solved', 'passed']);

/**
 * A Langfuse trace's `scores[]`: the first score named success / task_success / solved / passed
 * whose value is a boolean, or 0 or 1 (BOOLEAN scores are stored as 0/1). Other scores (quality
 * ratings, relevance) do not say whether the run succeeded and are not read.
 */
export function outcomeFromLangfuseScores(scores: unknown): Outcome | undefined {
  if (!Array.isArray(scores)) return undefined;
  for (const s of scores) {
    if (!isRecord(s) || typeof s.name !== 'string') continue;
    if (!LANGFUSE_SUCCESS_SCORES.has(s.name.toLowerCase())) continue;
    const value = s.value;
    const success =
      typeof value === 'boolean'
        ? value
        : value === 1
          ? true
          : value === 0
            ? false
            : asBoolean(s.stringValue);
    if (success === undefined) continue;
    return { success, source: `langfuse score ${s.name}` };
  }
  return undefined;
}

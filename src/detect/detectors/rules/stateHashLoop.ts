/**
 * STATE_HASH_LOOP: an agent keeps producing the same state change (or returning to the same state),
 * i.e. it is going round in circles (detection-tiers.md tier 1 "hash collision").
 *
 * For consecutive `state` steps of one agentId, the delta is the top-level keys added, changed (with
 * their new value) and removed. Values are normalised first: keys sorted recursively and volatile
 * keys (timestamps, ids, counters; `ignore_keys` / `ignore_key_suffixes`) dropped at every level, so
 * a loop that only bumps `updated_at` or `iteration` still hashes the same. SHA-256 of the canonical
 * JSON of the delta, and of the whole normalised state, is counted per agent; a hash seen
 * `min_repeats` times fires. Repeating hashes whose step ranges overlap are one loop, one signal.
 *
 * Counter names that are also ordinary words for where a workflow is (`step`, `version`, `turn`,
 * `attempt`, … : COUNT_KEYS) are dropped only while they hold a count or a timestamp. Their other
 * values are state: `step: "search_flights"` → `"book"` is progress, and the reference's promise is
 * that "if two states hash identically, they contain the same data" (detection-tiers.md, tier 1).
 *
 * Waste: the LLM calls that produced the repeats — for a state change made again, the calls
 * between the snapshot before it and the snapshot that shows it; for a return to a state, the
 * calls since the previous visit (the work that led back). Not the first change or visit (that one
 * was needed). Only when the trace's snapshots are one agent's: LLM steps name no agent, so with
 * several agents' snapshots interleaved, which call produced which state is unknown and nothing is
 * charged. The runner prices them.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import { listSome, snapshotsByAgent } from '../state/stateSnapshots.js';
import { plural } from '../structural/shared.js';
import { dict } from '../../../util/dict.js';
import type { Trace } from '../../../trace/schema.js';
import { wastePriority } from '../../wastePriority.js';

/** Repeating states, and steps per state, listed in the evidence; counts are always whole. */
const MAX_EVIDENCE_REPEATS = 20;
const MAX_EVIDENCE_STEPS = 50;

type Canon = null | boolean | number | string | Canon[] | { [k: string]: Canon };

/** What normalisation does with a key: keep it, drop it, or drop it while its value is a count. */
const KEEP = 0;
const DROP = 1;
const DROP_COUNT = 2;
type KeyMode = typeof KEEP | typeof DROP | typeof DROP_COUNT;

/**
 * Default `ignore_keys` (lowercased) that name a counter but are also words for a workflow stage, a
 * document version, whose turn it is: bookkeeping only while they hold a count or a timestamp.
 */
const COUNTER_KEYS = [
  'step',
  'step_count',
  'stepCount',
  'iteration',
  'iterations',
  'counter',
  'turn',
  'attempt',
  'attempts',
  'seq',
  'sequence',
  'revision',
  'version',
];
const COUNT_KEYS: ReadonlySet<string> = new Set(COUNTER_KEYS.map((k) => k.toLowerCase()));

// A count written as text ("3", "v2", "1.4.0") or an ISO 8601 date or date-time.
const COUNT_TEXT = /^v?\d+(?:\.\d+)*$/i;
const TIMESTAMP_TEXT =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** A value a counter key may drop: a number, nothing, or a count or timestamp written as text. */
function isCountValue(v: unknown): boolean {
  if (v === null || v === undefined || typeof v === 'number') return true;
  return typeof v === 'string' && v.length <= 40 && (COUNT_TEXT.test(v) || TIMESTAMP_TEXT.test(v));
}

function canonical(v: unknown, mode: (k: string) => KeyMode, depth = 0): Canon {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
  if (depth > 32) return '[deep]';
  if (Array.isArray(v)) return v.map((x) => canonical(x, mode, depth + 1));
  if (typeof v === 'object') {
    const out = dict<Canon>();
    for (const k of Object.keys(v as object).sort()) {
      const m = mode(k);
      if (m === DROP) continue;
      const value = (v as Record<string, unknown>)[k];
      if (m === DROP_COUNT && isCountValue(value)) continue;
      out[k] = canonical(value, mode, depth + 1);
    }
    return out;
  }
  return String(v);
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

interface Group {
  kind: 'delta' | 'state';
  hash: string;
  steps: number[];
  /**
   * Per occurrence, the step its work started after: the snapshot before it (a delta), the
   * previous visit (a state; 0 for the first).
   */
  from: number[];
  summary: string;
}

/**
 * The LLM steps (numbers from 1) between each repeat's `from` and its step: the work that produced
 * it. The stretches are marked on a difference array over the cluster's span, so a long loop costs
 * one walk of its steps, not one per repeat.
 */
function producingCalls(trace: Trace, cluster: readonly Group[]): number[] {
  let lo = Infinity;
  let hi = 0;
  for (const g of cluster)
    for (let k = 1; k < g.steps.length; k++) {
      if (g.from[k]! < lo) lo = g.from[k]!;
      if (g.steps[k]! > hi) hi = g.steps[k]!;
    }
  if (hi === 0) return [];
  // cover[n - lo] > 0 after the running sum: step n lies inside some repeat's stretch.
  const cover = new Int32Array(hi - lo + 2);
  for (const g of cluster)
    // The first occurrence was needed; a state group's first has no previous visit.
    for (let k = 1; k < g.steps.length; k++) {
      cover[g.from[k]! + 1 - lo]!++;
      cover[g.steps[k]! - lo]!--;
    }
  const calls: number[] = [];
  let inside = 0;
  for (let n = lo; n < hi; n++) {
    inside += cover[n - lo]!;
    if (inside > 0 && trace.steps[n - 1]?.type === 'llm') calls.push(n);
  }
  return calls;
}

export const stateHashLoop = defineDetector({
  meta: {
    id: 'STATE_HASH_LOOP',
    configKey: 'state_hash_loop',
    tier: 1,
    kind: 'structural',
    severity: 'high',
    failureMode: 'loop',
    description:
      'An agent repeats the same normalised state change (or returns to the same state): SHA-256 hash collision',
    priority: wastePriority('STATE_HASH_LOOP'),
    wasteRule:
      'the LLM calls that produced each repeat after the first (since the snapshot before it, or the previous visit); nothing when several agents keep snapshots',
    fix: 'the agent redoes the same state change: detect a repeated state and stop or change strategy',
    rule: 'The agent makes the same change to its state again, or returns to a state it was in, `min_repeats` times. Consecutive `state` snapshots of one agent are compared after dropping volatile keys (timestamps, ids, counters: `ignore_keys`, `ignore_key_suffixes`), and each change and each state is hashed (SHA-256), so a loop that only bumps `updated_at` still counts.',
    config: z.object({
      min_repeats: z
        .number()
        .int()
        .min(2)
        .default(3)
        .describe('Times the same delta or state hash must occur'),
      ignore_keys: z
        .array(z.string())
        .default([
          'timestamp',
          'ts',
          'now',
          'last_modified',
          'lastModified',
          'uuid',
          'nonce',
          'request_id',
          'requestId',
          'trace_id',
          'traceId',
          'span_id',
          'spanId',
          'run_id',
          'runId',
          'message_id',
          'messageId',
          ...COUNTER_KEYS,
          'elapsed',
          'elapsed_ms',
          'duration_ms',
          'durationMs',
        ])
        .describe('Volatile keys dropped at every level before hashing (case-insensitive)'),
      ignore_key_suffixes: z
        .array(z.string())
        .default(['_at', 'At', '_ts', '_timestamp', 'Timestamp'])
        .describe('Keys ending like this are dropped too (updated_at, createdAt, event_ts)'),
      detect_state_repeats: z
        .boolean()
        .default(true)
        .describe('Also fire when the whole normalised state recurs, not only the same change'),
    }),
  },
  detect(trace, ctx) {
    const byAgent = snapshotsByAgent(trace);
    if (byAgent.size === 0) return [];
    const cfg = ctx.config;
    const names = new Set(cfg.ignore_keys.map((k) => k.toLowerCase()));
    const cache = new Map<string, KeyMode>();
    const keyMode = (k: string): KeyMode => {
      let hit = cache.get(k);
      if (hit === undefined) {
        const lower = k.toLowerCase();
        hit = names.has(lower)
          ? COUNT_KEYS.has(lower)
            ? DROP_COUNT
            : DROP
          : cfg.ignore_key_suffixes.some((s) => k.length > s.length && k.endsWith(s))
            ? DROP
            : KEEP;
        cache.set(k, hit);
      }
      return hit;
    };
    const signals: SignalDraft[] = [];
    for (const [agentId, snaps] of byAgent) {
      if (snaps.length < cfg.min_repeats) continue;
      const deltaGroups = new Map<string, Group>();
      const stateGroups = new Map<string, Group>();
      let prev: Record<string, Canon> | undefined;
      let prevStep = 0;
      for (const snap of snaps) {
        const cur = canonical(snap.state, keyMode) as Record<string, Canon>;
        const curJson = JSON.stringify(cur);
        if (cfg.detect_state_repeats) {
          const h = sha256(curJson);
          const g = stateGroups.get(h) ?? { kind: 'state', hash: h, steps: [], from: [], summary: '' };
          g.from.push(g.steps[g.steps.length - 1] ?? 0);
          g.steps.push(snap.step);
          stateGroups.set(h, g);
        }
        if (prev) {
          const added = dict<Canon>();
          const changed = dict<Canon>();
          const removed: string[] = [];
          for (const k of Object.keys(cur)) {
            if (!(k in prev)) added[k] = cur[k]!;
            else if (JSON.stringify(prev[k]) !== JSON.stringify(cur[k])) changed[k] = cur[k]!;
          }
          for (const k of Object.keys(prev)) if (!(k in cur)) removed.push(k);
          const keys = [...Object.keys(added), ...Object.keys(changed), ...removed];
          if (keys.length > 0) {
            const h = sha256(JSON.stringify({ added, changed, removed }));
            const summary = [
              Object.keys(added).length ? `added ${listSome(Object.keys(added), 3)}` : '',
              Object.keys(changed).length ? `changed ${listSome(Object.keys(changed), 3)}` : '',
              removed.length ? `removed ${listSome(removed, 3)}` : '',
            ]
              .filter(Boolean)
              .join('; ');
            const g = deltaGroups.get(h) ?? { kind: 'delta', hash: h, steps: [], from: [], summary };
            g.from.push(prevStep);
            g.steps.push(snap.step);
            deltaGroups.set(h, g);
          }
        }
        prev = cur;
        prevStep = snap.step;
      }
      const firing = [...deltaGroups.values(), ...stateGroups.values()]
        .filter((g) => g.steps.length >= cfg.min_repeats)
        .sort((a, b) => a.steps[0]! - b.steps[0]!);
      // Groups whose step ranges overlap describe one loop.
      const clusters: Group[][] = [];
      let clusterEnd = -Infinity;
      for (const g of firing) {
        const first = g.steps[0]!;
        const last = g.steps[g.steps.length - 1]!;
        if (clusters.length > 0 && first <= clusterEnd) {
          clusters[clusters.length - 1]!.push(g);
          clusterEnd = Math.max(clusterEnd, last);
        } else {
          clusters.push([g]);
          clusterEnd = last;
        }
      }
      for (const cluster of clusters) {
        const steps = [...new Set(cluster.flatMap((g) => g.steps))].sort((a, b) => a - b);
        // A loop, not Math.max(...counts): a long run can have more groups than spread arguments fit.
        let maxCount = 0;
        for (const g of cluster) if (g.steps.length > maxCount) maxCount = g.steps.length;
        const lead = cluster.find((g) => g.kind === 'delta') ?? cluster[0]!;
        const at = listSome(lead.steps.map(String), 8);
        // A state seen n times was returned to n − 1 times: the first visit is not a return.
        const what =
          lead.kind === 'delta'
            ? `it made the same state change (${lead.summary}) ${plural(lead.steps.length, 'time')}, at steps ${at}`
            : `it returned to the same state ${plural(lead.steps.length - 1, 'time')}, at steps ${at}`;
        signals.push({
          steps,
          confidence: Math.min(0.96, Math.round((0.8 + 0.04 * (maxCount - cfg.min_repeats)) * 1000) / 1000),
          message: `Agent "${agentId}" is going round in circles: ${what} (volatile keys such as timestamps and counters ignored).`,
          evidence: {
            agentId,
            minRepeats: cfg.min_repeats,
            // Bounded: a long-running loop would otherwise put every step of it into the report
            // once per repeating state (the signal's own `steps` already lists them all).
            repeats: cluster.slice(0, MAX_EVIDENCE_REPEATS).map((g) => ({
              kind: g.kind,
              sha256: g.hash,
              count: g.steps.length,
              steps: g.steps.length > MAX_EVIDENCE_STEPS ? g.steps.slice(0, MAX_EVIDENCE_STEPS) : g.steps,
              ...(g.summary ? { change: g.summary } : {}),
            })),
            ...(cluster.length > MAX_EVIDENCE_REPEATS
              ? { moreRepeats: cluster.length - MAX_EVIDENCE_REPEATS }
              : {}),
            wastedSteps: byAgent.size === 1 ? producingCalls(trace, cluster) : [],
          },
        });
      }
    }
    return signals;
  },
});

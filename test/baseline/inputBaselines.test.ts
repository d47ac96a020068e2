import { describe, expect, it } from 'vitest';
import { createInputBaselines } from '../../src/baseline/inputBaselines.js';
import { percentile } from '../../src/baseline/percentile.js';
import { agentKey, BASELINE_METRICS, type BaselineFile, type BaselineRun } from '../../src/baseline/store.js';
import type { BaselineLookup, BaselineMetric, BaselineValue } from '../../src/detect/detector.js';
import { parseTime } from '../../src/trace/measure.js';
import type { Trace } from '../../src/trace/schema.js';

type Head = Pick<Trace, 'agentId' | 'agentVersion' | 'status' | 'outcome'>;

/**
 * The input baselines as they were computed before they were kept incrementally: every good run
 * kept, sorted by (time, offer) and cut to the window at each lookup, the P75 sorted afresh, with
 * the same refresh rule (every 5 good runs of the agent, or at each run while a P75 is missing).
 * The lookups of a report must not move, so the new structure must answer exactly as this does.
 */
function sortingInputBaselines(minRuns: number, window: number) {
  const byAgent = new Map<string, { run: BaselineRun; time: number; seq: number }[]>();
  const values = new Map<string, { p75s: Map<BaselineMetric, BaselineValue | undefined>; since: number }>();
  let learned = 0;
  const newest = (key: string) => {
    const kept = [...(byAgent.get(key) ?? [])].sort((a, b) => a.time - b.time || a.seq - b.seq);
    return kept.slice(Math.max(0, kept.length - window));
  };
  const lookup: BaselineLookup = (agentId, agentVersion, metric) => {
    const key = agentKey(agentId, agentVersion);
    let known = values.get(key);
    if (!known) values.set(key, (known = { p75s: new Map(), since: 0 }));
    if (!known.p75s.has(metric)) {
      const measured = newest(key)
        .map((k) => k.run.metrics[metric])
        .filter((v): v is number => typeof v === 'number');
      known.p75s.set(
        metric,
        measured.length >= minRuns
          ? { p75: percentile(measured, 75), runs: measured.length, source: 'input' }
          : undefined,
      );
    }
    return known.p75s.get(metric);
  };
  return {
    offer(head: Head, run: BaselineRun) {
      if (head.status !== 'ok') return;
      const key = agentKey(head.agentId, head.agentVersion);
      if (!byAgent.has(key)) byAgent.set(key, []);
      byAgent.get(key)!.push({ run, time: parseTime(run.runAt) ?? Number.POSITIVE_INFINITY, seq: learned++ });
      const known = values.get(key);
      if (known && (++known.since >= 5 || [...known.p75s.values()].includes(undefined))) values.delete(key);
    },
    lookup,
    file(): BaselineFile {
      const agents: BaselineFile['agents'] = {};
      for (const key of byAgent.keys()) agents[key] = { runs: newest(key).map((k) => k.run) };
      return { version: 2, agents };
    },
  };
}

/** Deterministic PRNG (mulberry32), as the bench's generator uses. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('input baselines kept incrementally', () => {
  it.each([
    { minRuns: 20, window: 50, seed: 1 },
    { minRuns: 3, window: 5, seed: 2 },
    { minRuns: 1, window: 1, seed: 3 },
    { minRuns: 10, window: 10, seed: 4 },
  ])(
    'answer every lookup, and keep the same runs, as sorting at each lookup did (minRuns $minRuns, window $window)',
    ({ minRuns, window, seed }) => {
      const r = rng(seed);
      const incremental = createInputBaselines({ minRuns, window });
      const sorting = sortingInputBaselines(minRuns, window);
      const agents = ['bot', 'bot@x', 'research'];
      let clock = Date.UTC(2026, 0, 1);
      let answered = 0;
      for (let i = 0; i < 3000; i++) {
        const agentId = agents[Math.floor(r() * agents.length)]!;
        const head: Head = {
          agentId,
          agentVersion: r() < 0.3 ? '2' : undefined,
          status: r() < 0.1 ? 'error' : 'ok',
        };
        // Mostly in time order; some runs late, some at the same moment, some with no time.
        const t = r();
        clock += Math.floor(r() * 1000);
        const runAt =
          t < 0.05
            ? undefined
            : new Date(t < 0.15 ? clock - Math.floor(r() * 60_000) : t < 0.2 ? clock - 1 : clock);
        const metrics: Record<string, number> = {
          stepCount: Math.floor(r() * 12),
          totalTokens: Math.floor(r() * 5000),
        };
        // Durations only sometimes measured: a P75 that stays missing for a while.
        if (r() < 0.5) metrics.durationMs = Math.floor(r() * 9000);
        // Ties, and now and then a ratio that is not a number (whose place no sort defines).
        metrics.llmToolRatio = r() < 0.002 * seed ? NaN : Math.floor(r() * 4) / 2;
        const run: BaselineRun = {
          traceId: `t${i}`,
          metrics,
          ...(runAt ? { runAt: runAt.toISOString() } : {}),
        };
        incremental.offer(head, run, []);
        sorting.offer(head, run);
        for (let k = Math.floor(r() * 4); k > 0; k--) {
          const ask = agents[Math.floor(r() * agents.length)]!;
          const version = r() < 0.3 ? '2' : undefined;
          const metric = BASELINE_METRICS[Math.floor(r() * BASELINE_METRICS.length)]!;
          const expected = sorting.lookup(ask, version, metric);
          expect(incremental.lookup(ask, version, metric), `lookup ${k} after run ${i}`).toEqual(expected);
          if (expected !== undefined) answered++;
        }
      }
      expect(incremental.file()).toEqual(sorting.file());
      // Both sides of minRuns were looked up.
      expect(answered).toBeGreaterThan(100);
    },
  );
});

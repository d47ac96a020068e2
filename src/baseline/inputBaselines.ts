/**
 * Baselines gathered from the input being analysed: for an agent the baseline store knows too
 * little of (a CI job's fresh checkout has no store), its good runs in the input are its usual.
 * A run is good by the store's own rule (learn.ts: status ok, no failed outcome, no high or
 * critical finding), judged on the findings of every detector except the baseline detectors
 * still waiting for this baseline, which cannot judge before it exists. As the store does, the
 * `window` most recent good runs of each agent version are kept (by run time; runs without one
 * count as the newest, in input order), so memory stays bounded whatever the input's size.
 *
 * A run is part of its own baseline. That does not let an outlier hide: the P75 of at least
 * `minRuns` (20) runs moves by at most one rank when one run is added, and an outlier sits above
 * the P75 whether it is counted or not; an input whose runs are all alike is judged alike.
 */
import type { BaselineLookup } from '../detect/detector.js';
import type { Signal } from '../detect/signal.js';
import { parseTime } from '../trace/measure.js';
import type { Trace } from '../trace/schema.js';
import { whyNotLearned } from './learn.js';
import { agentKey, baselineLookup, runMetrics, type BaselineFile, type BaselineRun } from './store.js';

export interface InputBaselines {
  /**
   * Offers one run: learned when it is good. `trace` need hold only what a baseline skeleton holds
   * (detect/baselineSkeleton.ts); `signals` are its findings so far.
   */
  offer(trace: Trace, signals: readonly Signal[]): void;
  /** Good runs offered so far. */
  readonly learned: number;
  /** The good runs kept, as a baseline file (the window of each agent version, oldest first). */
  file(): BaselineFile;
  /** The lookup over the good runs offered (at least `minRuns` per agent and metric to answer). */
  lookup(): BaselineLookup;
}

interface Kept {
  run: BaselineRun;
  time: number;
  seq: number;
}

export function createInputBaselines({
  minRuns,
  window,
}: {
  minRuns: number;
  window: number;
}): InputBaselines {
  const byAgent = new Map<string, Kept[]>();
  let learned = 0;
  const newest = (kept: Kept[]) =>
    kept.sort((a, b) => a.time - b.time || a.seq - b.seq).splice(0, Math.max(0, kept.length - window));
  const file = (): BaselineFile => {
    const agents: BaselineFile['agents'] = {};
    for (const [key, kept] of byAgent) {
      newest(kept);
      agents[key] = { runs: kept.map((k) => k.run) };
    }
    return { version: 2, agents };
  };
  return {
    offer(trace, signals) {
      if (whyNotLearned(trace, signals) !== undefined) return;
      const runAt = trace.startedAt ?? trace.endedAt;
      const run: BaselineRun = { traceId: trace.id, metrics: runMetrics(trace) };
      if (runAt !== undefined) run.runAt = runAt;
      const key = agentKey(trace.agentId, trace.agentVersion);
      let kept = byAgent.get(key);
      if (!kept) byAgent.set(key, (kept = []));
      kept.push({ run, time: parseTime(runAt) ?? Number.POSITIVE_INFINITY, seq: learned++ });
      // Sorting now and then keeps an agent's runs under twice the window.
      if (kept.length >= 2 * window) newest(kept);
    },
    get learned() {
      return learned;
    },
    file,
    lookup() {
      return baselineLookup(file(), minRuns, window, 'input');
    },
  };
}

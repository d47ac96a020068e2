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
import type { BaselineLookup, BaselineMetric, BaselineValue } from '../detect/detector.js';
import type { Signal } from '../detect/signal.js';
import { parseTime } from '../trace/measure.js';
import type { Trace } from '../trace/schema.js';
import { whyNotLearned } from './learn.js';
import { agentKey, baselineLookup, runMetrics, type BaselineFile, type BaselineRun } from './store.js';
import { dict } from '../util/dict.js';

/** What an input baseline keeps of a run: its metrics and its time (startedAt, else endedAt). */
export function inputRunOf(trace: Trace): BaselineRun {
  const run: BaselineRun = { traceId: trace.id, metrics: runMetrics(trace) };
  const runAt = trace.startedAt ?? trace.endedAt;
  if (runAt !== undefined) run.runAt = runAt;
  return run;
}

export interface InputBaselines {
  /**
   * Offers one run (`inputRunOf` its trace): learned when it is good, by the trace's status and
   * outcome and `signals`, its findings so far.
   */
  offer(
    trace: Pick<Trace, 'agentId' | 'agentVersion' | 'status' | 'outcome'>,
    run: BaselineRun,
    signals: readonly Signal[],
  ): void;
  /** Good runs offered so far. */
  readonly learned: number;
  /** The good runs kept, as a baseline file (the window of each agent version, oldest first). */
  file(): BaselineFile;
  /**
   * The lookup over the good runs offered so far (at least `minRuns` per agent and metric to
   * answer); it follows later offers.
   */
  lookup: BaselineLookup;
}

/** Good runs of an agent after which its P75s are computed again (see `values`). */
const REFRESH_EVERY = 5;

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
  /**
   * Per agent key, its P75s as last computed, and the good runs offered since. They are computed
   * again once REFRESH_EVERY runs have come (a P75 of 20 to 50 runs hardly moves with fewer), or at
   * the next run while the agent is short of minRuns; lookups come after every offer only when
   * traces are judged as they are read (past analyze()'s MAX_HELD_TRACES).
   */
  const values = new Map<string, { p75s: Map<BaselineMetric, BaselineValue | undefined>; since: number }>();
  let learned = 0;
  const newest = (kept: Kept[]) =>
    kept.sort((a, b) => a.time - b.time || a.seq - b.seq).splice(0, Math.max(0, kept.length - window));
  const file = (): BaselineFile => {
    const agents: BaselineFile['agents'] = dict();
    for (const [key, kept] of byAgent) {
      newest(kept);
      agents[key] = { runs: kept.map((k) => k.run) };
    }
    return { version: 2, agents };
  };
  return {
    offer(trace, run, signals) {
      if (whyNotLearned(trace, signals) !== undefined) return;
      const key = agentKey(trace.agentId, trace.agentVersion);
      let kept = byAgent.get(key);
      if (!kept) byAgent.set(key, (kept = []));
      kept.push({ run, time: parseTime(run.runAt) ?? Number.POSITIVE_INFINITY, seq: learned++ });
      const known = values.get(key);
      if (known && (++known.since >= REFRESH_EVERY || [...known.p75s.values()].includes(undefined)))
        values.delete(key);
      // Sorting now and then keeps an agent's runs under twice the window.
      if (kept.length >= 2 * window) newest(kept);
    },
    get learned() {
      return learned;
    },
    file,
    lookup(agentId, agentVersion, metric) {
      const key = agentKey(agentId, agentVersion);
      let known = values.get(key);
      if (!known) values.set(key, (known = { p75s: new Map(), since: 0 }));
      if (!known.p75s.has(metric)) {
        const kept = byAgent.get(key) ?? [];
        newest(kept);
        const runs: BaselineFile = { version: 2, agents: { [key]: { runs: kept.map((k) => k.run) } } };
        known.p75s.set(metric, baselineLookup(runs, minRuns, window, 'input')(agentId, agentVersion, metric));
      }
      return known.p75s.get(metric);
    },
  };
}

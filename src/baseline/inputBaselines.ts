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
import { percentile, percentileOfSorted } from './percentile.js';
import { agentKey, runMetrics, type BaselineFile, type BaselineRun } from './store.js';
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

/**
 * One agent key's good runs: the `window` newest by run time (then by offer), oldest first. A run
 * that falls out never comes back (every later run only pushes more out), so they are cut as they
 * come rather than sorted at each lookup.
 */
interface AgentRuns {
  kept: Kept[];
  /** Runs offered to this agent so far: a P75 computed at the same count needs no computing again. */
  offered: number;
  /** Per metric, its baseline as computed at `offered` runs. */
  computed: Map<BaselineMetric, { at: number; value: BaselineValue | undefined }>;
  /**
   * Per metric, the values of the kept runs that measured it, sorted ascending, kept as runs come
   * and go (an order-statistics list of at most `window` numbers): a P75 is read from it without a
   * sort. Undefined once a run measured NaN, whose place a sort does not define: then sorted anew.
   */
  sorted: Map<string, number[]> | undefined;
}

/** Where `v` goes in ascending `xs`: after every value not greater than it. */
function upperBound(xs: readonly number[], v: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function addSorted(sorted: Map<string, number[]>, run: BaselineRun): void {
  for (const [metric, v] of Object.entries(run.metrics)) {
    let xs = sorted.get(metric);
    if (!xs) sorted.set(metric, (xs = []));
    xs.splice(upperBound(xs, v), 0, v);
  }
}

function removeSorted(sorted: Map<string, number[]>, run: BaselineRun): void {
  for (const [metric, v] of Object.entries(run.metrics)) {
    const xs = sorted.get(metric)!;
    // Equal values are interchangeable: the last of them goes.
    xs.splice(upperBound(xs, v) - 1, 1);
  }
}

/** Where `k` goes among `kept` (ordered by time, then seq): after every run not newer than it. */
function insertionPoint(kept: readonly Kept[], k: Kept): number {
  let lo = 0;
  let hi = kept.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const m = kept[mid]!;
    if (m.time < k.time || (m.time === k.time && m.seq < k.seq)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function createInputBaselines({
  minRuns,
  window,
}: {
  minRuns: number;
  window: number;
}): InputBaselines {
  const byAgent = new Map<string, AgentRuns>();
  /**
   * Per agent key, its P75s as last handed out, and the good runs offered since. They are handed
   * out again, as the runs are then, once REFRESH_EVERY runs have come (a P75 of 20 to 50 runs
   * hardly moves with fewer), or at the next run while the agent is short of minRuns; lookups come
   * after every offer only when traces are judged as they are read (past analyze()'s
   * MAX_HELD_TRACES).
   */
  const values = new Map<string, { p75s: Map<BaselineMetric, BaselineValue | undefined>; since: number }>();
  let learned = 0;
  /** The baseline of `metric` over an agent's kept runs (what the store's lookup computes). */
  const baselineOf = (agent: AgentRuns, metric: BaselineMetric): BaselineValue | undefined => {
    const known = agent.computed.get(metric);
    if (known && known.at === agent.offered) return known.value;
    let value: BaselineValue | undefined;
    if (agent.sorted) {
      const xs = agent.sorted.get(metric) ?? [];
      if (xs.length >= minRuns) value = { p75: percentileOfSorted(xs, 75), runs: xs.length, source: 'input' };
    } else {
      const measured: number[] = [];
      for (const { run } of agent.kept) {
        const v = run.metrics[metric];
        if (typeof v === 'number') measured.push(v);
      }
      if (measured.length >= minRuns)
        value = { p75: percentile(measured, 75), runs: measured.length, source: 'input' };
    }
    agent.computed.set(metric, { at: agent.offered, value });
    return value;
  };
  const file = (): BaselineFile => {
    const agents: BaselineFile['agents'] = dict();
    for (const [key, { kept }] of byAgent) agents[key] = { runs: kept.map((k) => k.run) };
    return { version: 2, agents };
  };
  return {
    offer(trace, run, signals) {
      if (whyNotLearned(trace, signals) !== undefined) return;
      const key = agentKey(trace.agentId, trace.agentVersion);
      let agent = byAgent.get(key);
      if (!agent)
        byAgent.set(key, (agent = { kept: [], offered: 0, computed: new Map(), sorted: new Map() }));
      const k: Kept = { run, time: parseTime(run.runAt) ?? Number.POSITIVE_INFINITY, seq: learned++ };
      // Runs mostly come in time order: the end is where they go.
      const last = agent.kept[agent.kept.length - 1];
      if (last === undefined || last.time <= k.time) agent.kept.push(k);
      else agent.kept.splice(insertionPoint(agent.kept, k), 0, k);
      if (Object.values(run.metrics).some(Number.isNaN)) agent.sorted = undefined;
      if (agent.sorted) addSorted(agent.sorted, run);
      if (agent.kept.length > window) {
        const dropped = agent.kept.shift()!;
        if (agent.sorted) removeSorted(agent.sorted, dropped.run);
      }
      agent.offered++;
      const known = values.get(key);
      if (known && (++known.since >= REFRESH_EVERY || [...known.p75s.values()].includes(undefined)))
        values.delete(key);
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
        const agent = byAgent.get(key);
        known.p75s.set(metric, agent ? baselineOf(agent, metric) : undefined);
      }
      return known.p75s.get(metric);
    },
  };
}

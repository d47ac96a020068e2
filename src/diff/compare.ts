/**
 * Measures one quantity between base and head: pairs runs by task when both sides hold the same
 * tasks, runs the one-sided test toward worse (and toward better), puts a 95 % interval on the
 * change, and says how small a worsening these runs could detect. Pure; seeded, so the same two
 * reports always give the same numbers.
 *
 * Paired when at least MIN_PAIRED_TASKS tasks are on both sides and they hold at least half of
 * each side's runs: each task's mean over its runs on each side, the per-task differences, the
 * sign-flip test on them and a bootstrap over tasks. Runs of tasks on one side only are left out
 * (and counted). Otherwise independent samples: Fisher's exact test and Newcombe's interval for a
 * proportion, the permutation test and a bootstrap for a mean.
 */
import type { Quantity, QuantityMeaning } from './quantity.js';
import type { Run } from './runs.js';
import { splitTask } from './runs.js';
import { opposite, type Alternative } from './stats/alternative.js';
import { pairedInterval, unpairedInterval } from './stats/bootstrapIntervals.js';
import { fisherExact } from './stats/fisher.js';
import { permutationTest } from './stats/permutation.js';
import { minDetectableMeanChange, minDetectableProportionChange } from './stats/power.js';
import { signFlipTest, type SignFlipResult } from './stats/signFlip.js';
import { newcombeInterval } from './stats/wilson.js';
import { tidy } from './delta.js';
import { fmtInt } from '../util/thousands.js';

/** Fewer tasks on both sides than this, and the runs are compared as independent samples. */
const MIN_PAIRED_TASKS = 2;
/** Below this many units (tasks paired, runs otherwise) on a side, a bootstrap gives no interval. */
const MIN_INTERVAL_UNITS = 10;
export const CONFIDENCE = 0.95;
export const POWER = 0.8;

interface TaskMeans {
  sum: number;
  runs: number;
}

function byTask(runs: readonly Run[]): Map<string, TaskMeans> {
  const m = new Map<string, TaskMeans>();
  for (const r of runs) {
    const t = m.get(r.task);
    if (t) {
      t.sum += r.value;
      t.runs++;
    } else m.set(r.task, { sum: r.value, runs: 1 });
  }
  return m;
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;

function sd(values: readonly number[]): number {
  const m = mean(values) ?? 0;
  return values.length < 2
    ? 0
    : Math.sqrt(values.reduce((a, x) => a + (x - m) ** 2, 0) / (values.length - 1));
}

const sideOf = (runs: readonly Run[], tasks: number) => ({
  runs: runs.length,
  tasks,
  mean: mean(runs.map((r) => r.value)),
});

/**
 * Every value finite, and their sum too: a report holding values no run measures (1e308 dollars a
 * trace) sums past what a number holds, and would read as "within noise".
 */
export const finiteRuns = (runs: readonly Run[]): boolean =>
  Number.isFinite(runs.reduce((a, r) => a + r.value, 0)) && runs.every((r) => Number.isFinite(r.value));

/** The blank result of a quantity that could not be compared. */
export function notCompared(
  id: string,
  meaning: QuantityMeaning,
  base: readonly Run[],
  head: readonly Run[],
  status: 'unknown' | 'missing' | 'invalid',
  why: string,
): Quantity {
  return {
    id,
    ...meaning,
    base: sideOf(base, byTask(base).size),
    head: sideOf(head, byTask(head).size),
    status,
    why,
    change: null,
    relative: null,
    interval: null,
    test: null,
    p: null,
    pBetter: null,
    adjustedP: null,
    minDetectable: null,
    reading: null,
    gated: false,
    minEffect: null,
    decision: 'ungated',
  };
}

const signFlipName = (r: SignFlipResult) =>
  r.method === 'exact' ? 'sign-flip, exact' : `sign-flip, ${fmtInt(r.draws ?? 0)} draws`;

/**
 * Compares a quantity. `alpha` is the level its test would be held at in the gate (its share of
 * the correction's α), for the smallest detectable change.
 */
export function compareQuantity(
  id: string,
  meaning: QuantityMeaning,
  base: readonly Run[],
  head: readonly Run[],
  alpha: number,
): Quantity {
  if (!finiteRuns(base) || !finiteRuns(head))
    return notCompared(
      id,
      meaning,
      [],
      [],
      'invalid',
      'a value in one of the reports is not a finite number, or their sum is past what a number holds',
    );
  if (base.length === 0 || head.length === 0)
    return notCompared(
      id,
      meaning,
      base,
      head,
      'missing',
      `${base.length === 0 ? 'base' : 'head'} has no run that measures it`,
    );
  const worse: Alternative = meaning.better === 'higher' ? 'less' : 'greater';
  const baseTasks = byTask(base);
  const headTasks = byTask(head);
  const matched = [...baseTasks.keys()].filter((k) => headTasks.has(k)).sort();
  const matchedRuns = (tasks: Map<string, TaskMeans>) => matched.reduce((n, k) => n + tasks.get(k)!.runs, 0);
  const baseMatched = matchedRuns(baseTasks);
  const headMatched = matchedRuns(headTasks);
  const paired =
    matched.length >= MIN_PAIRED_TASKS && 2 * baseMatched >= base.length && 2 * headMatched >= head.length;
  const result = {
    id,
    ...meaning,
    base: sideOf(base, baseTasks.size),
    head: sideOf(head, headTasks.size),
    status: 'compared' as const,
    adjustedP: null,
    gated: false,
    minEffect: null,
    decision: 'ungated' as const,
  };
  const baseMean = result.base.mean!;
  const relativeOf = (change: number, from: number = baseMean) =>
    meaning.unit === 'usd' && from !== 0 ? tidy(change / from) : null;

  if (paired) {
    const baseMeans = matched.map((k) => baseTasks.get(k)!.sum / baseTasks.get(k)!.runs);
    const headMeans = matched.map((k) => headTasks.get(k)!.sum / headTasks.get(k)!.runs);
    const d = matched.map((_, i) => tidy(headMeans[i]! - baseMeans[i]!));
    const test = signFlipTest(d, worse);
    const change = tidy(mean(d)!);
    const n = matched.length;
    // Each side's value is the mean of its matched tasks' means, so that head − base is the change.
    const sides = {
      base: { ...result.base, mean: mean(baseMeans) },
      head: { ...result.head, mean: mean(headMeans) },
    };
    // The exact test cannot go below 2^-n however the tasks move: no change is detectable then.
    const reachable = 0.5 ** n <= alpha;
    return {
      ...result,
      ...sides,
      relative: relativeOf(change, sides.base.mean!),
      pairing: {
        method: 'paired',
        by: splitTask(matched[0]!).kind,
        matched: n,
        ...(baseMatched < base.length || headMatched < head.length
          ? { leftOut: { base: base.length - baseMatched, head: head.length - headMatched } }
          : {}),
      },
      change,
      interval: n >= MIN_INTERVAL_UNITS ? pairedInterval(d, CONFIDENCE) : null,
      test: signFlipName(test),
      p: test.p,
      pBetter: signFlipTest(d, opposite(worse)).p,
      minDetectable: !reachable
        ? null
        : meaning.kind === 'proportion'
          ? minDetectableProportionChange({
              rate: mean(baseMeans)!,
              baseRuns: n,
              headRuns: n,
              direction: worse === 'less' ? 'down' : 'up',
              alpha,
              power: POWER,
            })
          : minDetectableMeanChange({
              baseSd: sd(baseMeans),
              headSd: sd(headMeans),
              baseRuns: n,
              headRuns: n,
              alpha,
              power: POWER,
            }),
      reading: null,
    };
  }

  const change = tidy(result.head.mean! - baseMean);
  const common = {
    ...result,
    pairing: { method: 'unpaired' as const },
    change,
    relative: relativeOf(change),
  };
  if (meaning.kind === 'proportion') {
    const counts = {
      baseSuccesses: Math.round(base.reduce((a, r) => a + r.value, 0)),
      baseRuns: base.length,
      headSuccesses: Math.round(head.reduce((a, r) => a + r.value, 0)),
      headRuns: head.length,
    };
    return {
      ...common,
      interval: newcombeInterval(
        counts.baseSuccesses,
        counts.baseRuns,
        counts.headSuccesses,
        counts.headRuns,
        CONFIDENCE,
      ).map(tidy) as [number, number],
      test: "Fisher's exact",
      p: fisherExact(counts, worse),
      pBetter: fisherExact(counts, opposite(worse)),
      // Fisher's test cannot go below the p of the most lopsided table these runs allow.
      minDetectable:
        fisherExact(
          { baseSuccesses: base.length, baseRuns: base.length, headSuccesses: 0, headRuns: head.length },
          'less',
        ) > alpha
          ? null
          : minDetectableProportionChange({
              rate: baseMean,
              baseRuns: base.length,
              headRuns: head.length,
              direction: worse === 'less' ? 'down' : 'up',
              alpha,
              power: POWER,
            }),
      reading: null,
    };
  }
  const b = base.map((r) => r.value);
  const h = head.map((r) => r.value);
  const test = permutationTest(b, h, worse);
  return {
    ...common,
    interval:
      base.length >= MIN_INTERVAL_UNITS && head.length >= MIN_INTERVAL_UNITS
        ? (unpairedInterval(b, h, CONFIDENCE).map(tidy) as [number, number])
        : null,
    test:
      test.method === 'normal'
        ? 'permutation, normal limit'
        : `permutation, ${fmtInt(test.draws ?? 0)} draws`,
    p: test.p,
    pBetter: permutationTest(b, h, opposite(worse)).p,
    minDetectable: minDetectableMeanChange({
      baseSd: sd(b),
      headSd: sd(h),
      baseRuns: b.length,
      headRuns: h.length,
      alpha,
      power: POWER,
    }),
    reading: null,
  };
}

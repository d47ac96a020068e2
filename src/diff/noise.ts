/**
 * Is a change real or noise? For waste per trace, cost per trace and each detector's findings
 * per trace, a 95 % bootstrap interval of head − base (bootstrap.ts) and a label: `up` when the
 * whole interval is above 0, `down` when it is below, `within noise` when it holds 0. With fewer
 * than MIN_UNITS traces on a side there is no interval, and the label says so.
 */
import { z } from 'zod';
import {
  BOOTSTRAP_CONFIDENCE,
  BOOTSTRAP_RESAMPLES,
  BOOTSTRAP_SEED,
  deltaInterval,
  MIN_UNITS,
  resampleMeans,
  type SparseValues,
} from './bootstrap.js';
import { tidy } from './delta.js';
import type { PerTrace } from './perTrace.js';

export const NoiseLabelSchema = z.union([
  z.enum(['up', 'down', 'within noise']),
  z.string().regex(/^too few /),
]);

export const NoiseSchema = z.object({
  /** Mean per unit (trace or verdict) in each report. */
  base: z.number(),
  head: z.number(),
  delta: z.number(),
  relative: z.number().nullable(),
  /** 95 % interval of the delta; null with too few units on a side. */
  interval: z.tuple([z.number(), z.number()]).nullable(),
  /** `up`, `down`, `within noise`, or why there is no interval (`too few traces (7 < 10)`). */
  label: NoiseLabelSchema,
});
export type Noise = z.infer<typeof NoiseSchema>;

export const NoiseSectionSchema = z.object({
  method: z.literal('bootstrap'),
  resamples: z.number().int().positive(),
  confidence: z.number(),
  seed: z.number().int(),
  minTraces: z.number().int().positive(),
  wastePerTrace: NoiseSchema,
  costPerTrace: NoiseSchema,
  /** Findings per trace, for every detector with a finding in either report. */
  findingsPerTrace: z.record(z.string(), NoiseSchema),
});
export type NoiseSection = z.infer<typeof NoiseSectionSchema>;

const EMPTY: SparseValues = { index: new Int32Array(0), value: new Float64Array(0) };

function mean(v: SparseValues, n: number): number {
  if (n === 0) return 0;
  let s = 0;
  for (const x of v.value) s += x;
  return s / n;
}

function labelOf(interval: [number, number]): Noise['label'] {
  // Tidied, so that an interval of [0, 1e-18] from float sums reads as holding 0.
  const [lo, hi] = interval.map(tidy) as [number, number];
  if (lo > 0) return 'up';
  if (hi < 0) return 'down';
  return 'within noise';
}

/**
 * Noise entries for paired metrics: `metrics[i]` is [base values, head values]. `unit` names the
 * units in the too-few label ("traces", "verdicts").
 */
export function measureNoise(
  baseN: number,
  headN: number,
  metrics: readonly [SparseValues, SparseValues][],
  unit = 'traces',
): Noise[] {
  const few = Math.min(baseN, headN);
  const measured = few >= MIN_UNITS;
  const baseMeans = measured
    ? resampleMeans(
        baseN,
        metrics.map((m) => m[0]),
        BOOTSTRAP_SEED,
      )
    : [];
  const headMeans = measured
    ? resampleMeans(
        headN,
        metrics.map((m) => m[1]),
        BOOTSTRAP_SEED + 1,
      )
    : [];
  return metrics.map(([b, h], i) => {
    const base = mean(b, baseN);
    const head = mean(h, headN);
    const d = tidy(head - base);
    const interval = measured
      ? (deltaInterval(baseMeans[i]!, headMeans[i]!).map(tidy) as [number, number])
      : null;
    return {
      base,
      head,
      delta: d,
      relative: base === 0 ? null : tidy(d / base),
      interval,
      label: interval ? labelOf(interval) : `too few ${unit} (${few} < ${MIN_UNITS})`,
    };
  });
}

/** Waste, cost and each detector's findings per trace, base against head. */
export function noiseSection(base: PerTrace, head: PerTrace): NoiseSection {
  const detectors = [...new Set([...base.findings.keys(), ...head.findings.keys()])].sort();
  const metrics: [SparseValues, SparseValues][] = [
    [base.waste, head.waste],
    [base.cost, head.cost],
    ...detectors.map((d): [SparseValues, SparseValues] => [
      base.findings.get(d) ?? EMPTY,
      head.findings.get(d) ?? EMPTY,
    ]),
  ];
  const [waste, cost, ...perDetector] = measureNoise(base.n, head.n, metrics);
  return {
    method: 'bootstrap',
    resamples: BOOTSTRAP_RESAMPLES,
    confidence: BOOTSTRAP_CONFIDENCE,
    seed: BOOTSTRAP_SEED,
    minTraces: MIN_UNITS,
    wastePerTrace: waste!,
    costPerTrace: cost!,
    findingsPerTrace: Object.fromEntries(detectors.map((d, i) => [d, perDetector[i]!])),
  };
}

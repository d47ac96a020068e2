/**
 * One quantity compared between base and head: what it is, its value on each side, the pairing,
 * the change with its interval, the one-sided test toward "worse" and what the gate made of it.
 * compare.ts fills the measurement, gate.ts the decision.
 */
import { z } from 'zod';
import type { Severity } from '../detect/signal.js';
import type { QuantityName } from './config.js';

export const QuantityKindSchema = z.enum(['proportion', 'mean']);

export const QuantitySideSchema = z.object({
  /** Runs measured (traces, test attempts, or verdicts for the judges' score). */
  runs: z.number().int().nonnegative(),
  /** Distinct tasks among them. */
  tasks: z.number().int().nonnegative(),
  /**
   * Mean per run (a share for proportions); paired, the mean over the matched tasks of each task's
   * mean, so that head − base is the change. null with no run.
   */
  mean: z.number().nullable(),
});

export const PairingSchema = z.object({
  /** `paired`: task by task (a sign-flip test on per-task differences); `unpaired`: independent samples. */
  method: z.enum(['paired', 'unpaired']),
  /** What paired the runs: the Vitest test, the recording's task key, or the trace itself. */
  by: z.enum(['test', 'task', 'trace']).optional(),
  /** Tasks on both sides (paired only). */
  matched: z.number().int().nonnegative().optional(),
  /** Runs of tasks found on one side only, left out of a paired comparison. */
  leftOut: z
    .object({ base: z.number().int().nonnegative(), head: z.number().int().nonnegative() })
    .optional(),
});
export type Pairing = z.infer<typeof PairingSchema>;

/**
 * What the gate made of a quantity: `failed` it; `passed` it (no significant worsening);
 * `small` (worse beyond noise, but less than its minimum effect); `excused` (worse beyond noise,
 * but success rose beyond noise, and this quantity is a proxy of failure); `ungated` (reported
 * only); `untested` (gated, but not measured on both sides: unknown, missing or no run).
 */
export const DecisionSchema = z.enum(['failed', 'passed', 'small', 'excused', 'ungated', 'untested']);
export type Decision = z.infer<typeof DecisionSchema>;

export const QuantitySchema = z.object({
  /** success, findings, waste, cost, judgeScore, or a detector id (its share of runs). */
  id: z.string(),
  /** "success", "runs with a high-or-worse finding", "waste per run", "runs with a finding of TOOL_LOOP". */
  label: z.string(),
  kind: QuantityKindSchema,
  /** Which way is better. */
  better: z.enum(['higher', 'lower']),
  unit: z.enum(['share', 'usd', 'score']),
  /** Where success came from (success only). */
  source: z.enum(['tests', 'outcomes', 'verdicts']).optional(),
  base: QuantitySideSchema,
  head: QuantitySideSchema,
  /**
   * `compared`, or why not: `unknown` (cost or waste when no call could be priced), `missing` (a
   * side without the quantity), `invalid` (a value no run measures, such as Infinity: the gate fails).
   */
  status: z.enum(['compared', 'unknown', 'missing', 'invalid']),
  /** Why it was not compared, in words. */
  why: z.string().optional(),
  pairing: PairingSchema.optional(),
  /** head − base (paired: the mean of per-task differences), in the quantity's unit. */
  change: z.number().nullable(),
  /** change / base, for money; null when base is 0. */
  relative: z.number().nullable(),
  /** 95 % interval of the change; null with too few units for one. */
  interval: z.tuple([z.number(), z.number()]).nullable(),
  /** The test: "sign-flip, exact", "Fisher's exact", "permutation, 20,000 draws", … */
  test: z.string().nullable(),
  /** One-sided p-value toward worse. */
  p: z.number().nullable(),
  /** One-sided p-value toward better (what says an improvement is beyond noise). */
  pBetter: z.number().nullable(),
  /** Holm-adjusted p toward worse, among the gated quantities. */
  adjustedP: z.number().nullable(),
  /**
   * The smallest worsening these runs detect 4 times in 5 at the gate's level, in the quantity's
   * unit; null when none could be (or not compared).
   */
  minDetectable: z.number().nullable(),
  /** `worse` / `better` beyond noise (worse: after the correction, when gated), else `within noise`. */
  reading: z.enum(['worse', 'better', 'within noise']).nullable(),
  gated: z.boolean(),
  /** The smallest change toward worse that may fail the gate, in the quantity's unit (null: ungated). */
  minEffect: z.number().nullable(),
  decision: DecisionSchema,
});
export type Quantity = z.infer<typeof QuantitySchema>;

export interface QuantityMeaning {
  label: string;
  kind: 'proportion' | 'mean';
  better: 'higher' | 'lower';
  unit: 'share' | 'usd' | 'score';
}

/** What a quantity id names; any other id is a detector's share of runs. */
export function quantityMeaning(id: QuantityName | string, minSeverity: Severity): QuantityMeaning {
  switch (id) {
    case 'success':
      return { label: 'success', kind: 'proportion', better: 'higher', unit: 'share' };
    case 'findings':
      return {
        label: `runs with a ${minSeverity === 'low' ? '' : `${minSeverity}-or-worse `}finding`,
        kind: 'proportion',
        better: 'lower',
        unit: 'share',
      };
    case 'waste':
      return { label: 'waste per run', kind: 'mean', better: 'lower', unit: 'usd' };
    case 'cost':
      return { label: 'cost per run', kind: 'mean', better: 'lower', unit: 'usd' };
    case 'judgeScore':
      return { label: "judges' mean score", kind: 'mean', better: 'higher', unit: 'score' };
    default:
      return { label: `runs with a finding of ${id}`, kind: 'proportion', better: 'lower', unit: 'share' };
  }
}

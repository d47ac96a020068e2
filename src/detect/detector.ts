/**
 * The shape of a detector module, after ESLint's rule layout: `meta` says what it is and which
 * settings it takes (a zod object whose defaults are the reference's numbers); `detect` is a pure
 * function of one trace and its context.
 */
import type { z } from 'zod';
import type { Pricer } from '../pricing/pricer.js';
import type { Trace } from '../trace/schema.js';
import type { Severity, Signal } from './signal.js';

export type DetectorKind = 'structural' | 'state' | 'waste';

/**
 * Metrics the per-agent baselines keep: P75 over recent successful runs of one run-level value,
 * measured by `measureTrace` (src/trace/measure.ts): stepCount; maxStepDurationMs (a run's
 * longest step); maxPromptTokens (its largest prompt); llmToolRatio; totalTokens (input + output);
 * durationMs (wall clock).
 */
export type BaselineMetric =
  'stepCount' | 'maxStepDurationMs' | 'maxPromptTokens' | 'llmToolRatio' | 'totalTokens' | 'durationMs';

export interface DetectorMeta<C extends z.ZodObject = z.ZodObject> {
  /** Stable id, e.g. TOOL_LOOP. */
  id: string;
  /** Key of the detector's section in tracejury.yml, e.g. tool_loop. */
  configKey: string;
  tier: 1 | 2;
  kind: DetectorKind;
  severity: Severity;
  /** Short name of the failure mode it catches, for grouping in reports. */
  failureMode: string;
  description: string;
  /**
   * One line (under ~110 characters) for the engineer who owns the agent: what to change so the
   * signal stops firing. Text and markdown reports show it once per detector group.
   */
  fix: string;
  /**
   * The rule in a few sentences, in markdown, for docs/detectors.md: what fires and what does not,
   * naming the settings it uses. Only the documentation reads it (the judges read `description`).
   */
  rule?: string;
  /** Settings with the reference's defaults. `enabled` and `shadow` are added by the config layer. */
  config: C;
  /**
   * For detectors that charge waste (the cost-waste detectors and the structural loops): their
   * place in the order of who charges a wasted LLM call two detectors see (lower first; see
   * wastePriority.ts and suppression.ts). A structural detector with a priority lists the calls
   * its rule counts in its signals' `evidence.wastedSteps`, and the runner prices them.
   */
  priority?: number;
  /** For waste detectors: ids of higher-priority detectors whose claim on a trace suppresses this one. */
  suppressedBy?: readonly string[];
  /**
   * For detectors with a priority: which LLM calls their waste counts, and which it does not, in a
   * phrase (the README's table of who charges what is generated from it).
   */
  wasteRule?: string;
  /** For baseline detectors: which metric's P75 they compare against. */
  baseline?: BaselineMetric;
}

/**
 * Where a baseline's runs come from: the baseline store (`tracejury baseline update`), the base
 * branch's report (a pull request's comparison), or the good runs of the input being analysed.
 */
export type BaselineSource = 'store' | 'base-report' | 'input';

/** P75 baseline for one agent+version and metric, when at least `minRuns` successful runs exist. */
export interface BaselineValue {
  p75: number;
  runs: number;
  /** Where the runs come from (the store when absent). */
  source?: BaselineSource;
}

/**
 * What detection asks of the baselines: one agent's P75 of a metric, or undefined when it has too
 * few runs. Declared here, where it is consumed; the store (src/baseline/) provides it.
 */
export interface BaselineLookup {
  (agentId: string, agentVersion: string | undefined, metric: BaselineMetric): BaselineValue | undefined;
}

export interface DetectContext<C = Record<string, unknown>> {
  config: C;
  pricer: Pricer;
  /** Present only when the agent has enough runs for an adaptive baseline of this detector's metric. */
  baseline?: BaselineValue;
  /** Multiplier per agent for baseline comparisons (inflation_factor in config). */
  inflationFactor?: number;
}

/** What a detector returns; the runner fills in detector, traceId, tier, shadow and file. */
export type SignalDraft = Omit<Signal, 'detector' | 'traceId' | 'tier' | 'shadow' | 'file' | 'severity'> & {
  severity?: Severity;
};

export interface Detector<C extends z.ZodObject = z.ZodObject> {
  meta: DetectorMeta<C>;
  detect(trace: Trace, ctx: DetectContext<z.infer<C>>): SignalDraft[];
}

/** Identity helper that keeps a detector's config type flowing into `detect`. */
export function defineDetector<C extends z.ZodObject>(d: Detector<C>): Detector<C> {
  return d;
}

/**
 * The matcher types. Vitest 4 declares `Matchers<T>` and Vitest 5 `Matchers<R, T>`, and an
 * interface merge must repeat the type parameters exactly, so one declaration cannot extend both.
 * Both versions build `expect(x)` on Chai's `Assertion` (no type parameters in either), which is
 * how Chai plugins are typed: the matchers are declared there, and `expect(x).toHaveSignal(…)`,
 * `.not.…` and a misspelt matcher or argument are checked the same under Vitest 4 and 5.
 */
import type {
  BuiltInDetectorId,
  EvaluateOptions,
  ExpectedCall,
  JudgeSpec,
  MatchTrajectoryOptions,
  Severity,
} from 'tracejury';
import type { WorkerSettings } from './shared/workerSettings.js';

/**
 * Detector ids `toHaveSignal` accepts: the built-in ones, and any a project adds by declaring them:
 * `declare module 'tracejury/vitest' { interface CustomDetectorIds { MY_DETECTOR: true } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CustomDetectorIds {}
export type DetectorId = BuiltInDetectorId | Extract<keyof CustomDetectorIds, string>;

export interface SignalMatcherOptions {
  /** Only signals at least this confident count (default 0: any finding or gray-zone case). */
  minConfidence?: number;
  /** Only signals of exactly this severity count. */
  severity?: Severity;
}

export interface NoSignalsOptions {
  /** Count signals at or above this severity (default 'low': all). */
  minSeverity?: Severity;
}

/**
 * Every runTribunal option; `judges` defaults to tracejury.yml's `tribunal.judges` and the
 * cassette to `.tracejury/cassette.jsonl`. The response is what `expect` received (a trace's final
 * output, or the value itself) unless `response` is given.
 */
export type TribunalMatcherOptions = Partial<Omit<EvaluateOptions, 'judges'>> & {
  judges?: JudgeSpec[];
};

export interface SessionThresholds {
  /** agent_reliability must reach this (0–1). Neither given: both, at tracejury.yml's `sessions:` thresholds. */
  reliability?: number;
  /** agent_consistency must reach this (0–1). */
  consistency?: number;
}

export interface TracejuryMatchers {
  /** The trace has a finding (or gray-zone case) of this detector. */
  toHaveSignal(detector: DetectorId, options?: SignalMatcherOptions): void;
  /** No finding or gray-zone case at or above `minSeverity` (shadow signals never count). */
  toHaveNoSignals(options?: NoSignalsOptions): void;
  /** The dollars the waste detectors charge this trace are below `usd`. */
  toHaveWasteBelow(usd: number): void;
  /**
   * The trace's tool calls against `expected` ({ name, args? }[]): `mode` is `strict` (same calls,
   * same order; calls issued together in one model response in any order among themselves),
   * `unordered` (same multiset), `subset` (every call was expected) or `superset` (every expected
   * call happened). The default is `strict`: an ordered list of expected calls says "these, in
   * this order", agentevals defaults to it too, and loosening a test stays a visible choice rather
   * than what a forgotten option does. `args` is `exact` (default; key order ignored), `superset`
   * (extra keys allowed), `subset` (missing keys allowed), `ignore`, or a function, per tool or for
   * all.
   */
  toMatchTrajectory(expected: readonly ExpectedCall[], options?: MatchTrajectoryOptions): void;
  /** The tribunal of judges passes the response (INDETERMINATE fails, with `.not` too). */
  toPassTribunal(options?: TribunalMatcherOptions): Promise<void>;
  /** Session scores over the traces reach the thresholds (default: both at 0.5). */
  toMeetSessionThreshold(thresholds?: SessionThresholds): Promise<void>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Chai {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Assertion extends TracejuryMatchers {}
  }
}

declare module 'vitest' {
  interface ProvidedContext {
    tracejury: WorkerSettings;
  }
}

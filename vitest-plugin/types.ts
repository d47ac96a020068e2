/**
 * The matcher types. Vitest 4 declares `Matchers<T>` and Vitest 5 `Matchers<R, T>`, and an
 * interface merge must repeat the type parameters exactly, so one declaration cannot extend both.
 * Both versions build `expect(x)` on Chai's `Assertion` (no type parameters in either), which is
 * how Chai plugins are typed: the matchers are declared there, and `expect(x).toHaveSignal(…)`,
 * `.not.…` and a misspelt matcher or argument are checked the same under Vitest 4 and 5.
 */
import type { BuiltInDetectorId, ExpectedCall } from 'tracejury';
import type { WorkerSettings } from './shared/workerSettings.js';
import type {
  NoSignalsOptions,
  RootCauseMatcherOptions,
  SessionThresholds,
  SignalMatcherOptions,
  TrajectoryMatcherOptions,
  TribunalMatcherOptions,
} from './matchers/options.js';

// The option types are inferred from the schemas the matchers check their arguments with at run time.
export type {
  NoSignalsOptions,
  RootCauseMatcherOptions,
  SessionThresholds,
  SignalMatcherOptions,
  TrajectoryMatcherOptions,
  TribunalMatcherOptions,
};

/**
 * Detector ids `toHaveSignal` accepts: the built-in ones, and any a project adds by declaring them:
 * `declare module 'tracejury/vitest' { interface CustomDetectorIds { MY_DETECTOR: true } }` — and
 * registering the detector (`registerDetectors` in a setup file), which is what the run-time check
 * goes by.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CustomDetectorIds {}
export type DetectorId = BuiltInDetectorId | Extract<keyof CustomDetectorIds, string>;

export interface TracejuryMatchers {
  /** The trace has a finding (or gray-zone case) of this detector. */
  toHaveSignal(detector: DetectorId, options?: SignalMatcherOptions): void;
  /** No finding or gray-zone case at or above `minSeverity` (shadow signals never count). */
  toHaveNoSignals(options?: NoSignalsOptions): void;
  /**
   * The dollars this trace's findings charge it — cost-waste detectors and structural loops, each
   * call once — are below `usd` (0: no waste at all).
   */
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
  toMatchTrajectory(expected: readonly ExpectedCall[], options?: TrajectoryMatcherOptions): void;
  /** The tribunal of judges passes the response (INDETERMINATE fails, with `.not` too). */
  toPassTribunal(options?: TribunalMatcherOptions): Promise<void>;
  /**
   * Session scores over the traces — or over per-trace session signals
   * (`{ traceId, signals: { confidence, loop_detection, tool_correctness, coherence } }[]`) — reach
   * the thresholds (default: both at tracejury.yml's `sessions:` thresholds, 0.5).
   */
  toMeetSessionThreshold(thresholds?: SessionThresholds): Promise<void>;
  /**
   * The failed run's root cause (failure attribution's rules; no judges) is the one expected:
   * `{ agent?, step?, rule? }`, each field given compared; none given, the run failed and a root
   * cause was named. `.not` passes for a run that did not fail or that no rule could explain.
   */
  toHaveRootCause(expected?: RootCauseMatcherOptions): void;
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

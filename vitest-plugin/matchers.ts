/**
 * `tracejury/vitest/matchers`: the matchers, for `expect.extend(matchers)` in a setup file of
 * one's own. The plugin's setup file does exactly that; without the plugin, settings come from
 * tracejury.yml in the working directory and no report is written.
 */
import './types.js';
import { toHaveNoSignals, toHaveSignal, toHaveWasteBelow } from './matchers/signals.js';
import { toMeetSessionThreshold } from './matchers/session.js';
import { toMatchTrajectory } from './matchers/trajectory.js';
import { toPassTribunal } from './matchers/tribunal.js';
import { toHaveRootCause } from './matchers/rootCause.js';

export const matchers = {
  toHaveSignal,
  toHaveNoSignals,
  toHaveWasteBelow,
  toMatchTrajectory,
  toPassTribunal,
  toMeetSessionThreshold,
  toHaveRootCause,
};

export type {
  CustomDetectorIds,
  DetectorId,
  NoSignalsOptions,
  RootCauseMatcherOptions,
  SessionThresholds,
  SignalMatcherOptions,
  TracejuryMatchers,
  TrajectoryMatcherOptions,
  TribunalMatcherOptions,
} from './types.js';

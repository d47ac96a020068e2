/**
 * `tracejury/vitest`: the plugin, the helpers that bring traces into a test, and — by importing
 * this module anywhere in a project, as its vitest.config.ts does — the matcher types.
 */
import './types.js';
import { tracejury } from './main/plugin.js';

export { tracejury };
export default tracejury;
export type { TracejuryPluginOptions } from './main/options.js';
export type { TracejuryVitePlugin } from './main/plugin.js';
export {
  describeTraces,
  loadTraces,
  type DescribeTracesOptions,
  type LoadTracesOptions,
} from './worker/loadTraces.js';
export type {
  CustomDetectorIds,
  DetectorId,
  NoSignalsOptions,
  SessionThresholds,
  SignalMatcherOptions,
  TracejuryMatchers,
  TrajectoryMatcherOptions,
  TribunalMatcherOptions,
} from './types.js';
export { registerDetectors } from './worker/context.js';
export {
  startTraceReceiver,
  closeAllReceivers,
  type TraceReceiver,
  type TraceReceiverOptions,
} from './receiver/receiver.js';
export {
  captureTrace,
  captureTraceWithResult,
  resetCapture,
  tracejuryProcessor,
  type CaptureOptions,
  type CaptureFailure,
} from './capture/capture.js';

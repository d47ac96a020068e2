/**
 * toMatchTrajectory: the trace's tool calls against the expected ones, by the library's
 * matchTrajectory (src/trajectory), so the CLI, the Action and this matcher agree. The mode is
 * strict unless the options say otherwise. The failure message lays the recorded calls beside the
 * expected ones, each marked (ok, missing, extra, out of order, wrong args, failed, no result),
 * with a diff of the arguments that differ.
 */
import {
  describeTrajectoryResult,
  matchTrajectory,
  type ExpectedCall,
  type MatchTrajectoryOptions,
} from 'tracejury';
import { analyse } from '../worker/context.js';
import { currentTask } from '../worker/currentTask.js';
import { metaOf } from '../shared/meta.js';
import { receivedTrace } from '../worker/received.js';
import { recordTrace } from '../worker/savedTraces.js';
import { checkArgument } from './checkArgs.js';
import { TrajectoryMatcherOptionsSchema } from './options.js';

interface MatcherThis {
  isNot: boolean;
}

export function toMatchTrajectory(
  this: MatcherThis,
  received: unknown,
  expected: readonly ExpectedCall[],
  options?: MatchTrajectoryOptions,
) {
  // Unknown keys fail here (`{ mode, ignor: … }` must not match leniently); values are the library's to check.
  checkArgument('toMatchTrajectory', 'options', TrajectoryMatcherOptionsSchema, options ?? {});
  const analysis = analyse(receivedTrace(received));
  const task = currentTask(this);
  recordTrace(task, analysis);
  const result = matchTrajectory(analysis.trace, expected, options);
  if (task)
    metaOf(task).trajectories.push({
      traceId: analysis.trace.id,
      mode: result.mode,
      pass: result.pass,
      missing: result.missing.length,
      extra: result.extra.length,
      mismatched: result.mismatched.length,
      outOfOrder: result.outOfOrder.length,
    });
  return {
    pass: result.pass,
    message: () =>
      this.isNot
        ? `expected trace ${analysis.trace.id} not to match the ${result.mode} trajectory of ${expected.length} calls, but it does`
        : `expected trace ${analysis.trace.id} to match the ${result.mode} trajectory of ${expected.length} calls:\n${describeTrajectoryResult(result)}`,
  };
}

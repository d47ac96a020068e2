/**
 * A trace reduced to what the six baseline detectors (STEP_COUNT_INFLATION, SLOW_STEP,
 * CONTEXT_BLOAT, REASONING_STALL, COST_SPIKE, SESSION_LATENCY) and the good-run rule
 * (baseline/learn.ts) read: step types, timings, token counts and the names their messages quote;
 * no prompt, completion, tool argument, result or state. analyze() keeps one per trace whose
 * baseline detectors wait for the input's own baseline, which is known only once every trace has
 * been read, so that the input is read once and no whole trace is held. A detector that comes to
 * read another field must have it kept here: test/detect/baselineSkeleton.test.ts runs the six on
 * whole traces and on their skeletons and expects the same signals.
 */
import { parseTime } from '../trace/measure.js';
import type { Step, Trace } from '../trace/schema.js';

function stepSkeleton(step: Step, keepStart: boolean): Step {
  const timing = {
    ...(keepStart && step.startedAt !== undefined ? { startedAt: step.startedAt } : {}),
    ...(step.durationMs !== undefined ? { durationMs: step.durationMs } : {}),
  };
  switch (step.type) {
    case 'llm':
      return {
        type: 'llm',
        model: step.model,
        ...(step.name !== undefined ? { name: step.name } : {}),
        usage: { inputTokens: step.usage.inputTokens, outputTokens: step.usage.outputTokens },
        ...timing,
      };
    case 'tool':
      return { type: 'tool', name: step.name, status: step.status, ...timing };
    case 'retrieval':
      return { type: 'retrieval', results: [], ...timing };
    case 'message':
      return { type: 'message', from: step.from, content: undefined, ...timing };
    case 'state':
      return { type: 'state', agentId: step.agentId, state: {}, ...timing };
  }
}

export function baselineSkeleton(trace: Trace): Trace {
  // Step start times matter only when the trace's own times cannot give its duration (measure.ts).
  const start = parseTime(trace.startedAt);
  const end = parseTime(trace.endedAt);
  const keepStepStarts = start === undefined || end === undefined || end < start;
  return {
    id: trace.id,
    agentId: trace.agentId,
    ...(trace.agentVersion !== undefined ? { agentVersion: trace.agentVersion } : {}),
    status: trace.status,
    ...(trace.startedAt !== undefined ? { startedAt: trace.startedAt } : {}),
    ...(trace.endedAt !== undefined ? { endedAt: trace.endedAt } : {}),
    ...(trace.outcome !== undefined ? { outcome: trace.outcome } : {}),
    // REASONING_STALL asks only whether the run lists tools.
    ...(trace.availableTools !== undefined ? { availableTools: trace.availableTools.slice(0, 1) } : {}),
    steps: trace.steps.map((s) => stepSkeleton(s, keepStepStarts)),
  };
}

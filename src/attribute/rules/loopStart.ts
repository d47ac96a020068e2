/**
 * The first step of a loop or a retry storm: where the agent started repeating itself. The
 * detectors that find repetition name its steps; the first of them is where it began.
 */
import { firstStep } from '../firstStep.js';
import type { AttributionRule, CandidateDraft } from '../rule.js';

/** Detectors whose findings are a run repeating itself. */
const LOOP_DETECTORS: ReadonlySet<string> = new Set([
  'TOOL_LOOP',
  'RETRY_STORM',
  'TOOL_THRASHING',
  'STATE_HASH_LOOP',
  'LLM_TRUNCATION_LOOP',
  'RETRY_LOOP',
  'FALLBACK_STORM',
]);

export const loopStart: AttributionRule = {
  meta: {
    id: 'LOOP_START',
    description:
      'The first step of a loop or retry storm that a detector found (TOOL_LOOP, RETRY_STORM, TOOL_THRASHING, …)',
    messages: { loopStart: 'a {{detector}} starts here' },
  },
  find(ctx) {
    let first: CandidateDraft | undefined;
    for (const s of ctx.signals) {
      if (!LOOP_DETECTORS.has(s.detector) || s.shadow || s.steps.length === 0) continue;
      const step = firstStep(s.steps);
      if (first && first.step <= step) continue;
      first = {
        step,
        messageId: 'loopStart',
        data: { detector: s.detector },
        confidence: 0.65,
        strength: 'evidence',
        basis: { detector: s.detector, step },
      };
    }
    return first ? [first] : [];
  },
};

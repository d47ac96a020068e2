/**
 * The tier-1 structural detectors, in the reference's table order (PROMPT_INJECTION_SIGNAL lives with
 * the rules), then those added beyond the reference's seventeen.
 */
import type { Detector } from '../../detector.js';
import { cascadingToolFailure } from './cascadingToolFailure.js';
import { contextBloat } from './contextBloat.js';
import { costSpike } from './costSpike.js';
import { emptyLlmResponse } from './emptyLlmResponse.js';
import { firstStepFailure } from './firstStepFailure.js';
import { goalAbandonment } from './goalAbandonment.js';
import { harnessRejection } from './harnessRejection.js';
import { llmTruncationLoop } from './llmTruncationLoop.js';
import { ragEmptyRetrieval } from './ragEmptyRetrieval.js';
import { reasoningStall } from './reasoningStall.js';
import { retryStorm } from './retryStorm.js';
import { sessionLatency } from './sessionLatency.js';
import { slowStep } from './slowStep.js';
import { stepCountInflation } from './stepCountInflation.js';
import { toolAvoidance } from './toolAvoidance.js';
import { toolLoop } from './toolLoop.js';
import { toolThrashing } from './toolThrashing.js';

export const structuralDetectors: Detector[] = [
  toolLoop,
  toolThrashing,
  llmTruncationLoop,
  retryStorm,
  emptyLlmResponse,
  cascadingToolFailure,
  slowStep,
  contextBloat,
  goalAbandonment,
  reasoningStall,
  stepCountInflation,
  firstStepFailure,
  ragEmptyRetrieval,
  toolAvoidance,
  costSpike,
  sessionLatency,
  harnessRejection,
];

export {
  cascadingToolFailure,
  contextBloat,
  costSpike,
  emptyLlmResponse,
  firstStepFailure,
  goalAbandonment,
  harnessRejection,
  llmTruncationLoop,
  ragEmptyRetrieval,
  reasoningStall,
  retryStorm,
  sessionLatency,
  slowStep,
  stepCountInflation,
  toolAvoidance,
  toolLoop,
  toolThrashing,
};

/** Tier 1 rule detectors owned here: injection patterns, state hash loops and threshold checks. */
import type { Detector } from '../../detector.js';
import { contextWindowPressure } from './contextWindowPressure.js';
import { costBudget } from './costBudget.js';
import { promptInjectionSignal } from './promptInjectionSignal.js';
import { stateHashLoop } from './stateHashLoop.js';
import { tokenBudget } from './tokenBudget.js';

export const ruleDetectors: Detector[] = [
  promptInjectionSignal,
  stateHashLoop,
  tokenBudget,
  costBudget,
  contextWindowPressure,
];

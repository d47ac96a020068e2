/**
 * The cost-waste detectors, in priority order (the order the runner must apply
 * `applyWasteSuppression` in, src/detect/suppression.ts).
 */
import type { Detector } from '../../detector.js';
import { fallbackFailure } from './fallbackFailure.js';
import { fallbackStorm } from './fallbackStorm.js';
import { overkillModel } from './overkillModel.js';
import { retryLoop } from './retryLoop.js';

export { fallbackFailure, fallbackStorm, overkillModel, retryLoop };

export const wasteDetectors: Detector[] = [
  retryLoop,
  fallbackStorm,
  fallbackFailure,
  overkillModel,
] as Detector[];

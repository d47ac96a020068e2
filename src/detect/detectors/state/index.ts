/** Tier 2 state-delta detectors (detection-tiers.md), in report order. */
import type { Detector } from '../../detector.js';
import { crossFieldInconsistency } from './crossFieldInconsistency.js';
import { domainConstraintViolation } from './domainConstraintViolation.js';
import { fieldDisappearance } from './fieldDisappearance.js';
import { stateVelocityAnomaly } from './stateVelocityAnomaly.js';
import { typeDrift } from './typeDrift.js';

export const stateDetectors: Detector[] = [
  crossFieldInconsistency,
  domainConstraintViolation,
  stateVelocityAnomaly,
  typeDrift,
  fieldDisappearance,
];

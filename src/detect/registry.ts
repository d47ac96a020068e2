/** Every built-in detector, as a list of imports (ESLint's rule registry layout). */
import type { Detector } from './detector.js';
import { ruleDetectors } from './detectors/rules/index.js';
import { stateDetectors } from './detectors/state/index.js';
import { structuralDetectors } from './detectors/structural/index.js';
import { wasteDetectors } from './detectors/waste/index.js';

export const detectors: readonly Detector[] = [
  ...structuralDetectors,
  ...ruleDetectors,
  ...stateDetectors,
  ...[...wasteDetectors].sort((a, b) => (a.meta.priority ?? 99) - (b.meta.priority ?? 99)),
];

export function findDetector(idOrKey: string): Detector | undefined {
  return detectors.find((d) => d.meta.id === idOrKey || d.meta.configKey === idOrKey);
}

import { expect, it } from 'vitest';
import { BUILT_IN_DETECTOR_IDS } from '../../src/detect/ids.js';
import { detectors } from '../../src/detect/registry.js';

it('the typed list of detector ids is the registry, in its order', () => {
  expect([...BUILT_IN_DETECTOR_IDS]).toEqual(detectors.map((d) => d.meta.id));
});

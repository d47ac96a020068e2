import { describe, expect, it } from 'vitest';
import { fieldDisappearance } from '../../../src/detect/detectors/state/fieldDisappearance.js';
import { stateDetectors } from '../../../src/detect/detectors/state/index.js';
import { makeTrace, state } from '../../helpers/traceBuilder.js';
import { testDetector } from '../tester.js';

const full = { a: 1, b: 2, c: 3, d: 4, profile: { name: 'x', email: 'y', age: 3, city: 'z' } };

testDetector(fieldDisappearance, {
  valid: [
    {
      name: 'two fields vanish',
      trace: makeTrace([state(full), state({ c: 3, d: 4, profile: full.profile })]),
    },
    {
      name: 'a nested object vanishing is one field (plus one more = 2)',
      trace: makeTrace([state(full), state({ b: 2, c: 3, d: 4 })]),
    },
    {
      name: 'fields that were already null',
      trace: makeTrace([state({ a: null, b: null, c: null }), state({})]),
    },
    {
      name: 'raised min_fields',
      trace: makeTrace([state(full), state({ d: 4, profile: full.profile })]),
      config: { min_fields: 4 },
    },
  ],
  invalid: [
    {
      name: 'three fields vanish at once (one of them set to null)',
      trace: makeTrace([state(full), state({ a: null, d: 4, profile: full.profile })]),
      signals: [
        {
          steps: [2],
          severity: 'high',
          confidence: 0.75,
          message: '3 fields vanished at once from the state of agent "agent": a, b, c',
        },
      ],
    },
    {
      name: 'nested fields inside a surviving object count one by one',
      trace: makeTrace([state(full), state({ ...full, profile: { city: 'z' } })]),
      signals: [{ message: 'profile.name, profile.email, profile.age' }],
    },
  ],
});

describe('stateDetectors', () => {
  it('lists the five tier 2 state detectors', () => {
    expect(stateDetectors.map((d) => d.meta.id)).toEqual([
      'CROSS_FIELD_INCONSISTENCY',
      'DOMAIN_CONSTRAINT_VIOLATION',
      'STATE_VELOCITY_ANOMALY',
      'TYPE_DRIFT',
      'FIELD_DISAPPEARANCE',
    ]);
    for (const d of stateDetectors) {
      expect(d.meta.tier).toBe(2);
      expect(d.meta.kind).toBe('state');
      expect(() => d.meta.config.parse({})).not.toThrow();
    }
  });
});

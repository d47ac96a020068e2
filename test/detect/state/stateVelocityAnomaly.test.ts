import { stateVelocityAnomaly } from '../../../src/detect/detectors/state/stateVelocityAnomaly.js';
import { makeTrace, state } from '../../helpers/traceBuilder.js';
import { testDetector } from '../tester.js';

const base = { a: 0, b: 0, c: 0, d: 0, e: 0, f: 0 };
/** Four calm steps (one field each), then one step that changes `burst` fields. */
const burstTrace = (burst: number) => {
  const snaps = [
    { ...base },
    { ...base, status: 's1' },
    { ...base, status: 's2' },
    { ...base, status: 's3' },
    { ...base, status: 's4' },
  ];
  const last = { ...snaps[4]! } as Record<string, unknown>;
  ['a', 'b', 'c', 'd', 'e', 'f'].slice(0, burst).forEach((k, i) => (last[k] = i + 100));
  return makeTrace([...snaps, last].map((s) => state(s)));
};
const counterTrace = (lastMove: number) =>
  makeTrace([0, 100, 200, 300, 400, 400 + lastMove].map((tokens, i) => state({ tokens, note: `n${i}` })));

testDetector(stateVelocityAnomaly, {
  valid: [
    { name: 'burst of 4 fields (under min_changed_fields 5)', trace: burstTrace(4) },
    { name: 'numeric move 9.99× the median', trace: counterTrace(999) },
    {
      name: 'too few snapshots to judge',
      trace: makeTrace([state({ a: 1 }), state({ a: 2, b: 1, c: 1, d: 1, e: 1, f: 1 })]),
    },
  ],
  invalid: [
    {
      name: 'burst of 5 fields, 5× the median of 1',
      trace: burstTrace(5),
      signals: [{ steps: [6], severity: 'medium', message: 'changed 5 fields at once', confidence: 0.787 }],
    },
    {
      name: 'numeric move 10× its median move',
      trace: counterTrace(1000),
      signals: [
        {
          steps: [6],
          message: 'tokens in the state of agent "agent" jumped from 400 to 1400',
          confidence: 0.75,
        },
      ],
    },
  ],
});

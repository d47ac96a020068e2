import { stateHashLoop } from '../../../src/detect/detectors/rules/stateHashLoop.js';
import { makeTrace, state, tool } from '../../helpers/traceBuilder.js';
import { testDetector } from '../tester.js';

const A = { task: 'book flight', status: 'searching' };
const B = { task: 'book flight', status: 'failed' };

testDetector(stateHashLoop, {
  valid: [
    {
      name: 'state returns only twice (A B A B)',
      trace: makeTrace([state(A), state(B), state(A), state(B)]),
    },
    {
      name: 'progress: every state is new',
      trace: makeTrace([state({ n: 1 }), state({ n: 2 }), state({ n: 3 }), state({ n: 4 })]),
    },
    {
      name: 'loops split across two agents do not add up',
      trace: makeTrace([
        state(A, 'a'),
        state(A, 'b'),
        state(B, 'a'),
        state(B, 'b'),
        state(A, 'a'),
        state(A, 'b'),
      ]),
    },
    {
      name: 'min_repeats raised',
      trace: makeTrace([state(A), state(B), state(A), state(B), state(A)]),
      config: { min_repeats: 4 },
    },
  ],
  invalid: [
    {
      name: 'same state three times (A B A B A): one loop, one signal',
      trace: makeTrace([state(A), tool('search'), state(B), state(A), state(B), state(A)]),
      signals: [
        {
          steps: [1, 4, 6],
          severity: 'high',
          confidence: 0.8,
          message: 'Agent "agent" is going round in circles',
        },
      ],
    },
    {
      name: 'same change three times once timestamps and counters are ignored',
      trace: makeTrace([
        state({ ...A, updated_at: '2025-01-01T00:00:01Z', iteration: 1 }),
        state({ ...B, updated_at: '2025-01-01T00:00:02Z', iteration: 2 }),
        state({ ...A, updated_at: '2025-01-01T00:00:03Z', iteration: 3 }),
        state({ ...B, updated_at: '2025-01-01T00:00:04Z', iteration: 4 }),
        state({ ...A, updated_at: '2025-01-01T00:00:05Z', iteration: 5 }),
        state({ ...B, updated_at: '2025-01-01T00:00:06Z', iteration: 6 }),
        state({ ...A, updated_at: '2025-01-01T00:00:07Z', iteration: 7 }),
      ]),
      signals: [
        {
          steps: [1, 2, 3, 4, 5, 6, 7],
          message: /same state change \(changed status\) repeated 3 times/,
          confidence: 0.84,
        },
      ],
    },
    {
      name: 'stuck: the same state emitted three times in a row',
      trace: makeTrace([state(A), state(A), state(A)]),
      signals: [{ steps: [1, 2, 3], message: 'returned to the same state 3 times' }],
    },
    {
      name: 'two separate loops are two signals',
      trace: makeTrace([
        state(A),
        state(A),
        state(A),
        state({ n: 1 }),
        state({ n: 2 }),
        state(B),
        state(B),
        state(B),
      ]),
      signals: [{ steps: [1, 2, 3] }, { steps: [6, 7, 8] }],
    },
  ],
});

import { typeDrift } from '../../../src/detect/detectors/state/typeDrift.js';
import { makeTrace, state } from '../../helpers/traceBuilder.js';
import { testDetector } from '../tester.js';

testDetector(typeDrift, {
  valid: [
    {
      name: 'null → value → null is not drift',
      trace: makeTrace([state({ x: null }), state({ x: 'a' }), state({ x: null }), state({ x: 'b' })]),
    },
    { name: 'integer → float stays a number', trace: makeTrace([state({ n: 1 }), state({ n: 1.5 })]) },
    { name: 'other agents are separate', trace: makeTrace([state({ n: 1 }, 'a'), state({ n: 'one' }, 'b')]) },
    {
      name: 'ignored field',
      trace: makeTrace([state({ n: 1 }), state({ n: 'x' })]),
      config: { ignore_fields: ['n'] },
    },
  ],
  invalid: [
    {
      name: 'a number becomes a word',
      trace: makeTrace([state({ count: 3 }), state({ count: 'three' })]),
      signals: [
        { steps: [2], severity: 'medium', confidence: 0.82, message: 'count number → string (3 → "three")' },
      ],
    },
    {
      name: 'a number becomes its digits: mild drift',
      trace: makeTrace([state({ count: 3 }), state({ count: null }), state({ count: '3' })]),
      signals: [{ steps: [3], confidence: 0.72 }],
    },
    {
      name: 'an object becomes a string, a list becomes an object: one signal per step',
      trace: makeTrace([
        state({ user: { name: 'a' }, tags: ['x'] }),
        state({ user: 'a', tags: { x: true } }),
      ]),
      signals: [{ steps: [2], message: '2 fields changed type', confidence: 0.84 }],
    },
  ],
});

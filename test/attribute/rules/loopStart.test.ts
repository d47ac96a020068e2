import { loopStart } from '../../../src/attribute/rules/loopStart.js';
import { parseConfig } from '../../../src/config/config.js';
import { createDetectorRunner } from '../../../src/detect/runner.js';
import { createPricer } from '../../../src/pricing/pricer.js';
import type { Trace } from '../../../src/trace/schema.js';
import { signal } from '../../helpers/signalBuilder.js';
import { makeTrace, tool } from '../../helpers/traceBuilder.js';
import { tauBenchRun } from '../fixtures.js';
import { testRule } from '../ruleTester.js';

const runner = createDetectorRunner({
  config: parseConfig(''),
  pricer: createPricer(),
  baselines: () => undefined,
});
const detected = (trace: Trace) =>
  runner.run({ trace, source: { file: 'fixture.json', format: 'openai-messages' } });

const poll = {
  name: 'get_reservation_details',
  args: { reservation_id: 'ZX9' },
  result: '{"status": "pending"}',
};
// Steps: 1 llm, 2 tool, 3 llm, 4 message (user), then the same lookup over and over from step 5.
const looping = tauBenchRun(
  [
    { calls: [{ name: 'get_user_details', args: { user_id: 'u1' }, result: '{"name": "Mia"}' }] },
    { user: 'Is it confirmed yet?' },
    ...Array.from({ length: 5 }, () => ({ calls: [poll] })),
    { say: 'Still pending.' },
  ],
  [],
);
const loopSignals = detected(looping).filter((s) => s.detector === 'TOOL_LOOP');
const six = makeTrace(Array.from({ length: 6 }, () => tool('x')));

testRule(loopStart, {
  valid: [
    {
      name: 'no loop found',
      trace: tauBenchRun([{ calls: [poll] }, { say: 'Confirmed.' }], []),
      signals: [],
    },
    {
      name: 'a shadow loop detector decides nothing',
      trace: six,
      signals: [signal({ steps: [2, 3, 4], shadow: true })],
    },
    {
      name: 'findings that are not repetition',
      trace: six,
      signals: [signal({ detector: 'SLOW_STEP', steps: [2] })],
    },
  ],
  invalid: [
    {
      // The same lookup from step 5 on (tool steps 5, 7, 9, 11, 13): the loop starts at the first.
      name: 'the first step of the loop TOOL_LOOP found in a τ-bench-shaped run',
      trace: looping,
      signals: loopSignals,
      candidates: [
        {
          step: 5,
          messageId: 'loopStart',
          data: { detector: 'TOOL_LOOP' },
        },
      ],
    },
    {
      name: 'of two storms, the one that starts first',
      trace: six,
      signals: [
        signal({ detector: 'RETRY_STORM', steps: [4, 5, 6] }),
        signal({ detector: 'TOOL_THRASHING', steps: [3, 2] }),
      ],
      candidates: [
        { step: 2, messageId: 'loopStart', data: { detector: 'TOOL_THRASHING' }, strength: 'evidence' },
      ],
    },
  ],
});

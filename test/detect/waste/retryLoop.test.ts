import { retryLoop } from '../../../src/detect/detectors/waste/retryLoop.js';
import { makeTrace, tool } from '../../helpers/traceBuilder.js';
import { describe, expect, it } from 'vitest';
import { runDetector, testDetector } from '../tester.js';
import { call, calls, repeat } from './fixtures.js';

const login = { model: 'gpt-4', prompt: 'Validate user login', in: 20, out: 5, cost: 0.0015 };

testDetector(retryLoop, {
  valid: [
    { name: '3 identical calls = 2 retries (just under max_retries 3)', trace: calls(repeat(3, 1, login)) },
    {
      name: 'one gap of 121 s breaks the run (just over max_retry_interval 2 min)',
      trace: calls([...repeat(2, 1, login), ...repeat(2, 1, login, 122)]),
    },
    {
      name: '4 calls 110 s apart span 330 s (just over time_window 5 min)',
      trace: calls(repeat(4, 110, login)),
    },
    {
      name: 'same prompt, one call on another model',
      trace: calls([...repeat(3, 1, login), { ...login, model: 'gpt-4o', t: 3 }]),
    },
    {
      name: 'same model, different prompts',
      trace: calls([0, 1, 2, 3].map((i) => ({ ...login, prompt: `Validate user ${i}`, t: i }))),
    },
    { name: 'calls without a prompt are never "the same"', trace: calls(repeat(4, 1, { model: 'gpt-4' })) },
    {
      name: 'raised max_retries: 4 calls with max_retries 4',
      trace: calls(repeat(4, 1, login)),
      config: { max_retries: 4 },
    },
  ],
  invalid: [
    {
      name: "the reference's example: 4 identical gpt-4 calls in 3 s, recorded cost",
      trace: calls(repeat(4, 1, login)),
      signals: [
        {
          steps: [1, 2, 3, 4],
          severity: 'medium',
          confidence: 0.9,
          message:
            'gpt-4 called 4× with the same prompt in 3 s (steps 1–4): 3 redundant calls, $0.0045 wasted',
          wasteUsd: 0.0045,
          wasteTokens: 75,
        },
      ],
    },
    {
      name: 'gaps of exactly 120 s and a span of exactly 300 s still count (at the thresholds)',
      trace: calls([0, 120, 240, 300].map((t) => ({ ...login, t }))),
      signals: [{ steps: [1, 2, 3, 4], wasteUsd: 0.0045, message: 'in 5 min' }],
    },
    {
      name: 'no recorded cost: priced from the table (gpt-4 $30/$60 per 1M: 20 in + 5 out = $0.0009 a call)',
      trace: calls(repeat(4, 1, { model: 'gpt-4', prompt: 'Validate user login', in: 20, out: 5 })),
      signals: [{ wasteUsd: 0.0027, wasteTokens: 75, message: '$0.0027 wasted' }],
    },
    {
      name: 'two loops in one trace are two signals',
      trace: calls([
        ...repeat(4, 1, login),
        ...repeat(5, 2, { ...login, prompt: 'Fetch profile', cost: 0.001 }, 10),
      ]),
      signals: [
        { steps: [1, 2, 3, 4], wasteUsd: 0.0045 },
        { steps: [5, 6, 7, 8, 9], wasteUsd: 0.004, wasteTokens: 100 },
      ],
    },
    {
      name: 'max_retries 2 flags 3 calls',
      trace: calls(repeat(3, 1, login)),
      config: { max_retries: 2 },
      signals: [{ steps: [1, 2, 3], wasteUsd: 0.003 }],
    },
    {
      name: 'more than 5 calls is high severity',
      trace: calls(repeat(6, 1, login)),
      signals: [{ severity: 'high', wasteUsd: 0.0075, wasteTokens: 125 }],
    },
    {
      name: 'untimed calls: assumed back to back, lower confidence',
      trace: calls(repeat(4, 1, login).map(({ t: _t, ...c }) => c)),
      signals: [{ steps: [1, 2, 3, 4], confidence: 0.8, message: 'in unknown time', wasteUsd: 0.0045 }],
    },
    {
      name: 'tool steps between the calls are skipped; step numbers index trace.steps',
      trace: makeTrace([
        call({ ...login, t: 0 }),
        tool('lookup'),
        call({ ...login, t: 1 }),
        call({ ...login, t: 2 }),
        call({ ...login, t: 3 }),
      ]),
      signals: [{ steps: [1, 3, 4, 5], message: '(steps 1, 3, 4, 5)' }],
    },
  ],
});

describe('RETRY_LOOP evidence', () => {
  it('quotes the prompt redacted, then cut to 120 characters, so no prefix of a secret is left', () => {
    // The token starts at character 110: cut first, `ghp_aB3dE5` would be left in the evidence.
    const prompt = `${'p'.repeat(109)} ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5z and the rest of the prompt`;
    const [s] = runDetector(retryLoop, calls(repeat(4, 1, { ...login, prompt })));
    expect(s?.evidence?.prompt).toBe(`${'p'.repeat(109)} [REDACTED]…`);
  });
});

import { describe, expect, it } from 'vitest';
import { reasoningStall } from '../../../src/detect/detectors/structural/reasoningStall.js';
import { llm, makeTrace, message, tool } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

/** n LLM calls then t tool calls, in that order. */
const run = (n: number, t: number, fields: Parameters<typeof makeTrace>[1] = {}) =>
  makeTrace(
    [...Array.from({ length: n }, () => llm()), ...Array.from({ length: t }, () => tool('search'))],
    fields,
  );

testDetector(reasoningStall, {
  valid: [
    { name: 'static: just under (7 LLM calls for 2 tool calls = 3.5)', trace: run(7, 2) },
    { name: 'fewer than 5 LLM calls (4 for 1 tool call)', trace: run(4, 1) },
    { name: 'a chat run with no tools offered and none called', trace: run(8, 0) },
    {
      name: 'baseline says normal although static would fire (4 ≤ 2 × 3)',
      baseline: { p75: 3, runs: 20 },
      trace: run(8, 2),
    },
    { name: 'raised ratio moves the static boundary', config: { ratio: 5 }, trace: run(8, 2) },
    { name: 'raised min_llm_calls skips the run', config: { min_llm_calls: 9 }, trace: run(8, 2) },
    {
      name: 'a chat: replies to user turns are conversation, not reasoning (τ-bench airline shape)',
      trace: makeTrace([
        llm(),
        ...Array.from({ length: 10 }, () => [message('user', 'and the other flight?'), llm()]).flat(),
        tool('search_direct_flight'),
        llm(),
      ]),
    },
  ],
  invalid: [
    {
      name: 'thinking between user turns still counts: 8 unprompted LLM calls for 2 tools in a chat',
      trace: makeTrace([
        message('user', 'book it'),
        llm(),
        llm(),
        llm(),
        llm(),
        llm(),
        tool('a'),
        llm(),
        llm(),
        llm(),
        llm(),
        tool('b'),
      ]),
      signals: [{ steps: [3, 4, 5, 6, 8, 9, 10, 11], message: '8 LLM calls for 2 tool calls' }],
    },
    {
      name: 'one tool call is "1 tool call"',
      trace: run(5, 1),
      signals: [{ message: '5 LLM calls for 1 tool call: 5× LLM calls per tool call' }],
    },
    {
      name: 'static: exactly 4 LLM calls per tool call',
      trace: run(8, 2),
      signals: [
        {
          steps: [1, 2, 3, 4, 5, 6, 7, 8],
          severity: 'medium',
          message:
            '8 LLM calls for 2 tool calls: 4× LLM calls per tool call (static fallback: ≥ 4) (steps 1–8)',
          confidence: 0.8,
        },
      ],
    },
    {
      name: 'tools offered but none called: ratio 5',
      trace: run(5, 0, { availableTools: ['search'] }),
      signals: [{ steps: [1, 2, 3, 4, 5], message: '5 LLM calls for 0 tool calls' }],
    },
    {
      name: 'static: twice the ratio is high',
      trace: run(16, 2),
      signals: [{ severity: 'high', confidence: 0.92 }],
    },
    {
      name: 'baseline fires where static would not (3 > 2 × 1.2)',
      baseline: { p75: 1.2, runs: 33 },
      trace: run(6, 2),
      signals: [{ severity: 'medium', message: 'P75 baseline of 33 runs: 2× 1.2 = 2.4', confidence: 0.86 }],
    },
    {
      name: 'inflation_factor overrides the multiplier',
      baseline: { p75: 1, runs: 20 },
      inflationFactor: 1.2,
      trace: run(5, 4),
      signals: [{ message: '1.2× 1 = 1.2' }],
    },
    {
      name: 'lowered ratio moves the static boundary',
      config: { ratio: 3 },
      trace: run(6, 2),
      signals: [{}],
    },
  ],
});

describe('REASONING_STALL evidence', () => {
  it('records calls, ratio and the rule', () => {
    const [s] = runDetector(reasoningStall, run(9, 2));
    expect(s?.evidence).toMatchObject({
      llmCalls: 9,
      toolCalls: 2,
      llmToolRatio: 4.5,
      rule: 'static',
      limit: 4,
    });
  });
});

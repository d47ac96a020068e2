import { describe, expect, it } from 'vitest';
import { toolLoop } from '../../../src/detect/detectors/structural/toolLoop.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

testDetector(toolLoop, {
  valid: [
    {
      name: '2 calls of one tool in 5 tool calls',
      trace: makeTrace([tool('search'), tool('read'), tool('search'), tool('write'), tool('fetch')]),
    },
    {
      name: '3 calls spread over 6 tool calls (no 5-call window holds 3)',
      trace: makeTrace([
        tool('search'),
        tool('read'),
        tool('search'),
        tool('write'),
        tool('fetch'),
        tool('search'),
      ]),
    },
    {
      name: 'LLM steps do not count as tool calls, and distinct tools never loop',
      trace: makeTrace([llm(), tool('search'), llm(), tool('read'), llm(), tool('write'), llm()]),
    },
    {
      name: 'raised threshold: 3 in 5 no longer fires at threshold 4',
      config: { threshold: 4 },
      trace: makeTrace([tool('search'), tool('search'), tool('search'), tool('read')]),
    },
    {
      name: 'smaller window: 3 calls over 4 tool calls do not fit a window of 3',
      config: { window: 3 },
      trace: makeTrace([tool('search'), tool('read'), tool('write'), tool('search'), tool('search')]),
    },
  ],
  invalid: [
    {
      name: 'just over: 3 calls in 5 tool calls, LLM steps between',
      trace: makeTrace([
        llm(),
        tool('search_docs', { args: { q: 'a' } }),
        llm(),
        tool('read'),
        tool('search_docs', { args: { q: 'b' } }),
        tool('write'),
        tool('search_docs', { args: { q: 'a' } }),
      ]),
      signals: [
        {
          steps: [2, 5, 7],
          severity: 'high',
          message: 'search_docs called 3× in 5 tool calls (steps 2–7)',
          confidence: 0.82,
        },
      ],
    },
    {
      name: 'every call with different arguments: reported in the gray zone (may be legitimate iteration)',
      trace: makeTrace([
        tool('get_reservation_details', { args: { id: 'R1' } }),
        tool('get_reservation_details', { args: { id: 'R2' } }),
        tool('get_reservation_details', { args: { id: 'R3' } }),
      ]),
      signals: [
        {
          steps: [1, 2, 3],
          message:
            'get_reservation_details called 3× in 3 tool calls (steps 1–3), each time with different arguments (may be legitimate iteration)',
          confidence: 0.55,
        },
      ],
    },
    {
      name: 'arguments not recorded are not taken as different',
      trace: makeTrace([tool('search'), tool('search'), tool('search')]),
      signals: [{ steps: [1, 2, 3], confidence: 0.82 }],
    },
    {
      name: 'identical arguments each time, one merged signal for a run of overlapping windows',
      trace: makeTrace([
        tool('search', { args: { q: 'x', k: 5 } }),
        tool('search', { args: { k: 5, q: 'x' } }),
        tool('search', { args: { q: 'x', k: 5 } }),
        tool('search', { args: { q: 'x', k: 5 } }),
      ]),
      signals: [
        { steps: [1, 2, 3, 4], message: /called 4× in 4 tool calls .*identical arguments/, confidence: 0.94 },
      ],
    },
    {
      name: 'a long run of one tool is one signal, not one per window',
      trace: makeTrace(Array.from({ length: 10 }, (_, i) => tool('poll', { args: { attempt: i % 3 } }))),
      signals: [
        {
          steps: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
          message: 'poll called 10× in 10 tool calls',
          confidence: 0.88,
        },
      ],
    },
    {
      name: 'two separate loops of the same tool are two signals',
      trace: makeTrace([
        tool('search', { args: 1 }),
        tool('search', { args: 2 }),
        tool('search', { args: 3 }),
        tool('a'),
        tool('b'),
        tool('c'),
        tool('d'),
        tool('search', { args: 4 }),
        tool('search', { args: 5 }),
        tool('search', { args: 6 }),
      ]),
      signals: [
        { steps: [1, 2, 3], message: 'steps 1–3' },
        { steps: [8, 9, 10], message: 'steps 8–10' },
      ],
    },
    {
      name: 'two tools cycling over the same calls are one loop, not two signals',
      trace: makeTrace([tool('b'), tool('a'), tool('b'), tool('a'), tool('b'), tool('a')]),
      signals: [
        { steps: [1, 2, 3, 4, 5, 6], message: 'b called 3× and a called 3× in 6 tool calls (steps 1–6)' },
      ],
    },
    {
      name: 'loops of two tools that do not overlap are two signals, ordered by first step',
      trace: makeTrace([tool('a'), tool('a'), tool('a'), tool('x'), tool('b'), tool('b'), tool('b')]),
      signals: [
        { steps: [1, 2, 3], message: 'a called 3×' },
        { steps: [5, 6, 7], message: 'b called 3×' },
      ],
    },
    {
      name: 'lowered threshold: 2 calls in 3 fire at threshold 2',
      config: { threshold: 2 },
      trace: makeTrace([tool('search'), tool('read'), tool('search')]),
      signals: [{ steps: [1, 3], message: 'search called 2× in 3 tool calls' }],
    },
  ],
});

describe('TOOL_LOOP evidence', () => {
  it('records counts, window and argument identity', () => {
    const [s] = runDetector(
      toolLoop,
      makeTrace([
        tool('search', { args: { q: 'a' } }),
        tool('x'),
        tool('search', { args: { q: 'b' } }),
        tool('search', { args: { q: 'a' } }),
      ]),
    );
    expect(s?.evidence).toMatchObject({
      tool: 'search',
      calls: 3,
      toolCallsSpanned: 4,
      threshold: 3,
      window: 5,
      identicalArgs: false,
      perTool: [{ tool: 'search', calls: 3, identicalArgs: false, distinctArgs: 2 }],
    });
  });
});

import { goalAbandonment } from '../../../src/detect/detectors/structural/goalAbandonment.js';
import { llm, makeTrace, message, retrieval, tool } from '../../helpers/traceBuilder.js';
import { testDetector } from '../tester.js';

const stalled = (n: number) => Array.from({ length: n }, () => llm());
const callsTool = llm({
  output: { role: 'assistant', toolCalls: [{ name: 'search' }] },
  finishReason: 'tool_calls',
});

testDetector(goalAbandonment, {
  valid: [
    {
      name: 'just under: 3 LLM calls after the last tool call',
      trace: makeTrace([llm(), tool('search'), ...stalled(3)], { status: 'error' }),
    },
    {
      name: 'status ok is an exit, even without an output',
      trace: makeTrace([tool('search'), ...stalled(6)], { status: 'ok' }),
    },
    {
      name: 'an output is an exit, even with status error',
      trace: makeTrace([tool('search'), ...stalled(6)], { status: 'error', output: 'partial answer' }),
    },
    {
      name: 'no tool use before: a chat that never used tools did not abandon them',
      trace: makeTrace(stalled(6), { status: 'error' }),
    },
    {
      name: 'an LLM output requesting tools is tool use',
      trace: makeTrace([tool('search'), ...stalled(2), callsTool, ...stalled(3)], { status: 'running' }),
    },
    {
      name: 'raised min_llm_calls moves the boundary',
      config: { min_llm_calls: 5 },
      trace: makeTrace([tool('search'), ...stalled(4)], { status: 'error' }),
    },
  ],
  invalid: [
    {
      name: 'just over: tool use stops, then 4 LLM calls, status error, no output',
      trace: makeTrace([llm(), tool('search'), ...stalled(4)], { status: 'error' }),
      signals: [
        {
          steps: [3, 4, 5, 6],
          severity: 'medium',
          message:
            'no tool use after step 2, then 4 LLM calls without reaching an answer (steps 3–6); the run ended with status error and no output',
          confidence: 0.85,
        },
      ],
    },
    {
      name: 'status running with a blank output, message steps ignored',
      trace: makeTrace([tool('search'), llm(), message('user', 'hi'), ...stalled(4)], {
        status: 'running',
        output: '  ',
      }),
      signals: [{ steps: [2, 4, 5, 6, 7], message: 'status running', confidence: 0.9 }],
    },
    {
      name: 'a retrieval counts as tool use',
      trace: makeTrace([tool('a'), llm(), retrieval({ results: [{ score: 0.9 }] }), ...stalled(4)], {
        status: 'error',
      }),
      signals: [{ steps: [4, 5, 6, 7], message: 'no tool use after step 3' }],
    },
    {
      name: 'lowered min_llm_calls moves the boundary',
      config: { min_llm_calls: 2 },
      trace: makeTrace([tool('search'), ...stalled(2)], { status: 'error' }),
      signals: [{ steps: [2, 3] }],
    },
    {
      name: 'min_llm_calls 1: one stalled call is "1 LLM call"',
      config: { min_llm_calls: 1 },
      trace: makeTrace([tool('search'), ...stalled(1)], { status: 'error' }),
      signals: [{ steps: [2], message: 'then 1 LLM call without reaching an answer (step 2)' }],
    },
  ],
});

import { firstStepFailure } from '../../../src/detect/detectors/structural/firstStepFailure.js';
import { llm, makeTrace, retrieval, tool } from '../../helpers/traceBuilder.js';
import { testDetector } from '../tester.js';

const fail = (name: string) => tool(name, { status: 'error', error: 'ECONNREFUSED' });

testDetector(firstStepFailure, {
  valid: [
    {
      name: 'just under: the first failure is at step 3',
      trace: makeTrace([llm(), tool('a'), fail('b')], { status: 'error' }),
    },
    {
      name: 'an LLM output of only tool calls is not empty',
      trace: makeTrace([
        llm({ output: { role: 'assistant', toolCalls: [{ name: 'a' }] }, finishReason: 'tool_calls' }),
        tool('a'),
      ]),
    },
    { name: 'a retrieval with no results is RAG_EMPTY_RETRIEVAL’s', trace: makeTrace([retrieval(), llm()]) },
    {
      name: 'LLM output not recorded is not empty',
      trace: makeTrace([llm({ output: undefined, usage: undefined })]),
    },
    {
      name: 'lowered max_step: a failure at step 2 is past step 1',
      config: { max_step: 1 },
      trace: makeTrace([llm(), fail('a')]),
    },
  ],
  invalid: [
    {
      name: 'a tool error at step 1 in a run that failed',
      trace: makeTrace([fail('db_query'), llm()], { status: 'error' }),
      signals: [
        {
          steps: [1],
          severity: 'medium',
          message: 'step 1: tool db_query failed: ECONNREFUSED; the run ended with status error',
          confidence: 0.9,
        },
      ],
    },
    {
      name: 'an LLM error at step 2, run recovered',
      trace: makeTrace([tool('a'), llm({ error: 'rate limited', output: undefined }), llm()]),
      signals: [
        {
          steps: [2],
          message: /step 2: LLM call gpt-4o-mini failed: rate limited \(the run later recovered/,
          confidence: 0.8,
        },
      ],
    },
    {
      name: 'an empty LLM output at step 1',
      trace: makeTrace([llm({ output: ' ' }), llm()], { status: 'error' }),
      signals: [{ steps: [1], message: 'returned nothing' }],
    },
    {
      name: 'both early steps failing are one signal',
      trace: makeTrace([fail('a'), llm({ error: 'bad request' })], { status: 'error' }),
      signals: [{ steps: [1, 2] }],
    },
    {
      name: 'raised max_step reaches step 3',
      config: { max_step: 3 },
      trace: makeTrace([llm(), tool('a'), fail('b')]),
      signals: [{ steps: [3] }],
    },
  ],
});

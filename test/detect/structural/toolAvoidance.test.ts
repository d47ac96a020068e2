import { toolAvoidance } from '../../../src/detect/detectors/structural/toolAvoidance.js';
import { llm, makeTrace, retrieval, tool } from '../../helpers/traceBuilder.js';
import { testDetector } from '../tester.js';

const tools = { availableTools: ['search', 'calc'] };

testDetector(toolAvoidance, {
  valid: [
    { name: 'no tools offered', trace: makeTrace([llm(), llm()]) },
    { name: 'tools offered as an empty list', trace: makeTrace([llm(), llm()], { availableTools: [] }) },
    { name: 'just under: a single LLM call answering directly', trace: makeTrace([llm()], tools) },
    { name: 'a tool was called', trace: makeTrace([llm(), tool('search'), llm()], tools) },
    {
      name: 'an LLM output requested tools (execution not recorded)',
      trace: makeTrace(
        [llm({ output: { role: 'assistant', toolCalls: [{ name: 'search' }] } }), llm()],
        tools,
      ),
    },
    {
      name: 'no answer: last LLM output blank, no run output',
      trace: makeTrace([llm(), llm({ output: '' })], { ...tools, status: 'error' }),
    },
    {
      name: 'raised min_llm_calls moves the boundary',
      config: { min_llm_calls: 3 },
      trace: makeTrace([llm(), llm()], tools),
    },
  ],
  invalid: [
    {
      name: 'one LLM call and one tool offered are singular',
      config: { min_llm_calls: 1 },
      trace: makeTrace([llm({ output: '42' })], { availableTools: ['calc'] }),
      signals: [
        {
          steps: [1],
          message: 'answered after 1 LLM call without calling any of its 1 available tool (calc) (step 1)',
        },
      ],
    },
    {
      name: 'just over: 2 LLM calls, tools offered, none called, answered',
      trace: makeTrace([llm(), retrieval({ results: [{ score: 0.9 }] }), llm({ output: '42' })], tools),
      signals: [
        {
          steps: [1, 3],
          severity: 'medium',
          message:
            'answered after 2 LLM calls without calling any of its 2 available tools (search, calc) (steps 1–3)',
          confidence: 0.78,
        },
      ],
    },
    {
      name: 'many LLM calls, answered through the run output',
      trace: makeTrace([llm(), llm(), llm(), llm({ output: '' })], { ...tools, output: 'done' }),
      signals: [{ steps: [1, 2, 3, 4], confidence: 0.86 }],
    },
    {
      name: 'a long tool list is shortened in the message',
      trace: makeTrace([llm(), llm()], { availableTools: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }),
      signals: [{ message: 'its 7 available tools (a, b, c, d, e, … (7 in all))' }],
    },
  ],
});

import { llmTruncationLoop } from '../../../src/detect/detectors/structural/llmTruncationLoop.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';
import { testDetector } from '../tester.js';

testDetector(llmTruncationLoop, {
  valid: [
    {
      name: 'just under: one truncated call',
      trace: makeTrace([llm({ finishReason: 'length' }), llm(), tool('search'), llm()]),
    },
    {
      name: 'normal finish reasons of several providers',
      trace: makeTrace([
        llm({ finishReason: 'stop' }),
        llm({ finishReason: 'end_turn' }),
        llm({ finishReason: 'tool_calls' }),
        llm({ finishReason: 'STOP' }),
      ]),
    },
    {
      name: 'raised threshold: 2 truncations do not fire at threshold 3',
      config: { threshold: 3 },
      trace: makeTrace([llm({ finishReason: 'length' }), llm({ finishReason: 'length' })]),
    },
  ],
  invalid: [
    {
      name: 'just over: 2 truncations with a normal LLM call between',
      trace: makeTrace([
        llm({ finishReason: 'length' }),
        tool('search'),
        llm(),
        llm({ finishReason: 'length' }),
      ]),
      signals: [
        {
          steps: [1, 4],
          severity: 'high',
          message: '2 LLM calls hit the output token limit (finish reason length) (steps 1–4)',
          confidence: 0.85,
        },
      ],
    },
    {
      name: 'provider spellings (Anthropic max_tokens, Gemini MAX_TOKENS), back to back',
      trace: makeTrace([
        llm(),
        llm({ finishReason: 'max_tokens' }),
        tool('x'),
        llm({ finishReason: 'MAX_TOKENS' }),
      ]),
      signals: [
        { steps: [2, 4], message: /max_tokens, MAX_TOKENS.*2 of them back to back/, confidence: 0.92 },
      ],
    },
    {
      name: 'OpenAI Responses max_output_tokens and more than the threshold',
      trace: makeTrace([
        llm({ finishReason: 'max_output_tokens' }),
        llm(),
        llm({ finishReason: 'length' }),
        llm(),
        llm({ finishReason: 'length' }),
      ]),
      signals: [{ steps: [1, 3, 5], message: '3 LLM calls', confidence: 0.92 }],
    },
    {
      name: 'lowered threshold: a single truncation fires at threshold 1',
      config: { threshold: 1 },
      trace: makeTrace([llm(), llm({ finishReason: 'length' })]),
      signals: [{ steps: [2], message: '(step 2)' }],
    },
  ],
});

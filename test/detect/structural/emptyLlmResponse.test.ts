import { describe, expect, it } from 'vitest';
import { emptyLlmResponse } from '../../../src/detect/detectors/structural/emptyLlmResponse.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

const toolCallsOnly = { role: 'assistant', toolCalls: [{ name: 'search', arguments: { q: 'x' } }] };

testDetector(emptyLlmResponse, {
  valid: [
    { name: 'one character of text is a response', trace: makeTrace([llm({ output: '.' })]) },
    {
      name: 'an output that is only tool calls is not empty (finish reason tool_calls or stop)',
      trace: makeTrace([
        llm({ output: toolCallsOnly, finishReason: 'tool_calls' }),
        tool('search'),
        llm({ output: { ...toolCallsOnly, content: null }, finishReason: 'stop' }),
      ]),
    },
    {
      name: 'output not recorded but usage shows completion tokens',
      trace: makeTrace([llm({ output: undefined, usage: { inputTokens: 100, outputTokens: 40 } })]),
    },
    {
      name: 'output and usage both unrecorded: nothing shows it was empty',
      trace: makeTrace([llm({ output: undefined, usage: undefined })]),
    },
    {
      name: 'a blank truncated call is the truncation detector’s',
      trace: makeTrace([llm({ output: '', finishReason: 'length' })]),
    },
    {
      name: 'a failed call is a failure, not an empty response',
      trace: makeTrace([llm({ output: '', error: '500' })]),
    },
    {
      name: 'missing finish reason and no recorded output does not fire',
      trace: makeTrace([llm({ output: undefined, finishReason: undefined })]),
    },
    {
      name: 'missing finish reason with a blank output does not fire when switched off',
      config: { missing_finish_reason: false },
      trace: makeTrace([llm({ output: '', finishReason: undefined })]),
    },
    {
      name: 'non-text content parts are content',
      trace: makeTrace([llm({ output: { role: 'assistant', content: [{ type: 'image_url', url: 'x' }] } })]),
    },
  ],
  invalid: [
    {
      name: 'zero-length text with finish reason stop',
      trace: makeTrace([llm(), tool('x'), llm({ output: '', model: 'gpt-4o' })]),
      signals: [
        {
          steps: [3],
          severity: 'high',
          message: 'gpt-4o returned an empty response with finish reason stop (step 3)',
          confidence: 0.92,
        },
      ],
    },
    {
      name: 'whitespace-only text counts as empty (Anthropic end_turn)',
      trace: makeTrace([llm({ output: ' \n\t', finishReason: 'end_turn' })]),
      signals: [{ steps: [1], message: 'finish reason end_turn' }],
    },
    {
      name: 'a chat message with blank content and no tool calls (Gemini STOP, text parts)',
      trace: makeTrace([
        llm({ output: { role: 'assistant', content: '' }, finishReason: 'STOP' }),
        llm({ output: { role: 'assistant', content: [{ type: 'text', text: '  ' }] } }),
      ]),
      signals: [{ steps: [1] }, { steps: [2] }],
    },
    {
      name: 'output not recorded but usage says 0 completion tokens',
      trace: makeTrace([llm({ output: undefined, usage: { inputTokens: 500, outputTokens: 0 } })]),
      signals: [{ steps: [1], message: 'with 0 completion tokens', confidence: 0.84 }],
    },
    {
      name: 'missing finish reason with a blank output fires at lower confidence',
      trace: makeTrace([llm({ output: '', finishReason: undefined })]),
      signals: [{ steps: [1], message: 'finish reason not recorded', confidence: 0.72 }],
    },
  ],
});

describe('EMPTY_LLM_RESPONSE confidence', () => {
  it('keeps every signal above the gray zone', () => {
    const got = runDetector(
      emptyLlmResponse,
      makeTrace([
        llm({ output: '' }),
        llm({ output: '', finishReason: undefined }),
        llm({ output: undefined, usage: { inputTokens: 5, outputTokens: 0 } }),
      ]),
    );
    expect(got).toHaveLength(3);
    for (const s of got) expect(s.confidence).toBeGreaterThan(0.65);
  });
});

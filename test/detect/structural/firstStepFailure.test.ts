import { firstStepFailure } from '../../../src/detect/detectors/structural/firstStepFailure.js';
import { llm, makeTrace, retrieval, tool } from '../../helpers/traceBuilder.js';
import { describe, expect, it } from 'vitest';
import { runDetector, testDetector } from '../tester.js';

const fail = (name: string) => tool(name, { status: 'error', error: 'ECONNREFUSED' });
const miss = (name: string, error: string) => tool(name, { status: 'error', error });

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
    {
      name: 'a search that found nothing, then the agent went on and finished',
      trace: makeTrace(
        [
          llm(),
          miss('search_files', "ValueError: No files found with the given query ('Hawaii vacation')."),
          llm(),
          tool('search_files', { result: 'hawaii-trip.docx' }),
          llm(),
        ],
        { output: 'Packing list created.' },
      ),
    },
    {
      name: 'searching again after a miss until something is found is recovery too',
      trace: makeTrace(
        [
          llm(),
          miss('search_calendar_events', 'ValueError: No events found. Try with a different query.'),
          miss('search_calendar_events', 'ValueError: No events found. Try with a different query.'),
          tool('get_current_day', { result: '2024-05-15' }),
        ],
        { output: 'The networking event is on May 26.' },
      ),
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
          message:
            'step 1: tool db_query failed: ECONNREFUSED; the run never recovered: it ended with status error',
          confidence: 0.9,
        },
      ],
    },
    {
      name: 'an LLM error at step 2, run recovered',
      trace: makeTrace([tool('a'), llm({ error: 'rate limited', output: undefined }), llm()], {
        output: 'booked',
      }),
      signals: [
        {
          steps: [2],
          message: 'step 2: LLM call gpt-4o-mini failed: rate limited (the run later recovered and ended ok)',
          confidence: 0.8,
        },
      ],
    },
    {
      // Status defaults to ok when not recorded (QA t1/t8): without an output, "ended ok" is a guess.
      name: 'no status and no output recorded: it does not claim the run ended ok',
      trace: makeTrace([tool('a', { status: 'error' }), llm()]),
      signals: [
        {
          steps: [1],
          message:
            'step 1: tool a failed (the run has no output and no error status: whether it recovered is not known)',
        },
      ],
    },
    {
      name: 'a search that found nothing in a run that never recovered still fires',
      trace: makeTrace(
        [llm(), miss('search_contacts', "Contact with email 'alex@x.org' not found."), llm()],
        {
          status: 'error',
        },
      ),
      signals: [
        {
          steps: [2],
          message: /not found.*; the run never recovered: it ended with status error/,
          confidence: 0.9,
        },
      ],
    },
    {
      name: 'a miss followed by a real error is not recovered from',
      trace: makeTrace(
        [
          llm(),
          miss('search_files', 'No files found'),
          tool('read_file', { status: 'error', error: 'EACCES' }),
        ],
        { output: 'Sorry, I could not read it.' },
      ),
      // It ended with an apology, not an answer: it did not recover (runEnding.ts).
      signals: [
        { steps: [2], confidence: 0.9, message: /; the run never recovered: it ended with an apology/ },
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

describe('FIRST_STEP_FAILURE messages', () => {
  // The token starts at character 110 of the error: cut first, `ghp_aB3dE5` would be left.
  const error = `${'e'.repeat(109)} ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5z`;

  it('redacts a tool error before cutting it, so no prefix of a secret is left', () => {
    const [s] = runDetector(firstStepFailure, makeTrace([tool('a', { status: 'error', error })]));
    expect(s?.message).not.toContain('ghp_');
    expect(s?.message).toContain(`tool a failed: ${'e'.repeat(109)} [REDACTED] (`);
    expect(JSON.stringify(s?.evidence)).not.toContain('ghp_');
  });

  it('redacts an LLM error before cutting it, and marks a cut with "…"', () => {
    const [s] = runDetector(
      firstStepFailure,
      makeTrace([llm({ error, output: undefined }), llm({ error: 'x'.repeat(300) })]),
    );
    expect(s?.message).not.toContain('ghp_');
    expect(s?.message).toContain(`step 1: LLM call gpt-4o-mini failed: ${'e'.repeat(109)} [REDACTED];`);
    expect(s?.message).toContain(`step 2: LLM call gpt-4o-mini failed: ${'x'.repeat(120)}… (`);
  });
});

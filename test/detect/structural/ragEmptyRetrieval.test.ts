import { describe, expect, it } from 'vitest';
import { ragEmptyRetrieval } from '../../../src/detect/detectors/structural/ragEmptyRetrieval.js';
import { llm, makeTrace, retrieval } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

const scored = (...scores: number[]) =>
  retrieval({ query: 'refund policy', results: scores.map((score, i) => ({ id: `d${i}`, score })) });
const toolCallsOnly = llm({
  output: { role: 'assistant', toolCalls: [{ name: 'search' }] },
  finishReason: 'tool_calls',
});

testDetector(ragEmptyRetrieval, {
  valid: [
    { name: 'just under: best score exactly 0.3', trace: makeTrace([scored(0.1, 0.3), llm()]) },
    { name: 'one relevant result among irrelevant ones', trace: makeTrace([scored(0.05, 0.1, 0.8), llm()]) },
    {
      name: 'results without scores are not judged',
      trace: makeTrace([retrieval({ results: [{ id: 'a' }, { id: 'b', score: 0.1 }] }), llm()]),
    },
    {
      name: 'recovered: a later retrieval returned relevant results',
      trace: makeTrace([retrieval(), llm({ output: 'let me search again' }), scored(0.9), llm()]),
    },
    {
      name: 'did not answer: only tool calls after, no output, run failed',
      trace: makeTrace([retrieval(), toolCallsOnly], { status: 'error' }),
    },
    {
      name: 'lowered min_relevance moves the boundary',
      config: { min_relevance: 0.2 },
      trace: makeTrace([scored(0.25), llm()]),
    },
  ],
  invalid: [
    {
      name: '0 results, then an answer',
      trace: makeTrace([llm(), retrieval(), llm({ output: 'Our refund policy is 90 days.' })]),
      signals: [
        {
          steps: [2, 3],
          severity: 'medium',
          message:
            'retrieval found nothing relevant (step 2 returned 0 results) and the agent answered anyway (step 3)',
          confidence: 0.86,
        },
      ],
    },
    {
      name: 'just over: all scores below 0.3',
      trace: makeTrace([scored(0.1, 0.29), llm()]),
      signals: [
        { steps: [1, 2], message: 'step 1 returned 2 results, best score 0.29 < 0.3', confidence: 0.78 },
      ],
    },
    {
      name: 'two failed retrievals in a row, then an answer: one signal',
      trace: makeTrace([retrieval(), scored(0.1), toolCallsOnly, llm()]),
      signals: [{ steps: [1, 2, 4] }],
    },
    {
      name: 'a good retrieval earlier does not cover a later failed one',
      trace: makeTrace([scored(0.9), llm(), retrieval(), llm()]),
      signals: [{ steps: [3, 4] }],
    },
    {
      name: 'answered through the run output only',
      trace: makeTrace([toolCallsOnly, retrieval()], { output: 'Refunds take 90 days.' }),
      signals: [{ steps: [2], message: '(run output)' }],
    },
    {
      name: 'raised min_relevance moves the boundary',
      config: { min_relevance: 0.5 },
      trace: makeTrace([scored(0.4, 0.45), llm()]),
      signals: [{ steps: [1, 2], message: '< 0.5' }],
    },
  ],
});

describe('RAG_EMPTY_RETRIEVAL evidence', () => {
  it('lists each failed retrieval with its query', () => {
    const [s] = runDetector(ragEmptyRetrieval, makeTrace([scored(0.1), llm()]));
    expect(s?.evidence).toMatchObject({
      minRelevance: 0.3,
      retrievals: [{ step: 1, query: 'refund policy', results: 1, verdict: 'irrelevant' }],
      answerStep: 2,
    });
  });
});

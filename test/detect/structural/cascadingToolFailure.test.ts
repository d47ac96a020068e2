import { describe, expect, it } from 'vitest';
import { cascadingToolFailure } from '../../../src/detect/detectors/structural/cascadingToolFailure.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

const fail = (name: string, error = 'boom') => tool(name, { status: 'error', error });

testDetector(cascadingToolFailure, {
  valid: [
    {
      name: 'just under: 2 consecutive failures of 2 tools',
      trace: makeTrace([fail('a'), fail('b'), tool('c')]),
    },
    {
      name: 'three failures of one tool are a retry storm, not a cascade',
      trace: makeTrace([fail('fetch'), fail('fetch'), fail('fetch')]),
    },
    {
      name: 'a success in between breaks the chain',
      trace: makeTrace([fail('a'), fail('b'), tool('c'), fail('d'), fail('e')]),
    },
    {
      name: 'raised min_failures: 3 failures do not fire at 4',
      config: { min_failures: 4 },
      trace: makeTrace([fail('a'), fail('b'), fail('c')]),
    },
    {
      name: 'raised min_tools: 2 distinct tools do not fire at 3',
      config: { min_tools: 3 },
      trace: makeTrace([fail('a'), fail('b'), fail('a')]),
    },
  ],
  invalid: [
    {
      name: 'just over: 3 failures across 2 tools, LLM steps between',
      trace: makeTrace([tool('plan'), fail('fetch'), llm(), fail('parse'), llm(), fail('fetch')]),
      signals: [
        {
          steps: [2, 4, 6],
          severity: 'high',
          message: '3 consecutive tool failures across 2 tools (fetch, parse) (steps 2–6)',
          confidence: 0.85,
        },
      ],
    },
    {
      name: 'clearly over: 4 failures across 3 tools',
      trace: makeTrace([fail('a'), fail('b'), fail('c'), fail('a')]),
      signals: [{ steps: [1, 2, 3, 4], message: 'across 3 tools (a, b, c)', confidence: 0.9 }],
    },
    {
      name: 'two cascades separated by a success are two signals',
      trace: makeTrace([fail('a'), fail('b'), fail('c'), tool('ok'), fail('d'), fail('e'), fail('f')]),
      signals: [{ steps: [1, 2, 3] }, { steps: [5, 6, 7] }],
    },
    {
      name: 'lowered min_failures: 2 failures of 2 tools fire at 2',
      config: { min_failures: 2 },
      trace: makeTrace([fail('a'), fail('b')]),
      signals: [{ steps: [1, 2] }],
    },
  ],
});

describe('CASCADING_TOOL_FAILURE evidence', () => {
  it('lists the tools and their errors', () => {
    const [s] = runDetector(
      cascadingToolFailure,
      makeTrace([fail('a', 'x'), fail('b', 'y'), fail('c', 'z')]),
    );
    expect(s?.evidence).toMatchObject({ failures: 3, tools: ['a', 'b', 'c'], errors: ['x', 'y', 'z'] });
  });
});

describe('CASCADING_TOOL_FAILURE evidence', () => {
  it('clips each error to 120 characters, redacted first, as messages do', () => {
    const huge = `${'e'.repeat(200_000)} ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5z`;
    const [s] = runDetector(
      cascadingToolFailure,
      makeTrace([
        fail('a', huge),
        fail('b', `ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5z`),
        tool('c', { status: 'error' }),
      ]),
    );
    expect(s?.evidence?.errors).toEqual([`${'e'.repeat(120)}…`, '[REDACTED]', null]);
  });
});

/**
 * Runs far longer than the call stack has room for as spread arguments (`Math.max(...xs)` fails
 * somewhere past 100,000 numbers): every detector that lists steps must still answer. The traces
 * repeat one parsed step object, which the detectors only read, so they are cheap to build.
 */
import { describe, expect, it } from 'vitest';
import { cascadingToolFailure } from '../../../src/detect/detectors/structural/cascadingToolFailure.js';
import { costSpike } from '../../../src/detect/detectors/structural/costSpike.js';
import { llmTruncationLoop } from '../../../src/detect/detectors/structural/llmTruncationLoop.js';
import { ragEmptyRetrieval } from '../../../src/detect/detectors/structural/ragEmptyRetrieval.js';
import { reasoningStall } from '../../../src/detect/detectors/structural/reasoningStall.js';
import { retryStorm } from '../../../src/detect/detectors/structural/retryStorm.js';
import { stepSpan } from '../../../src/detect/detectors/structural/shared.js';
import { toolLoop } from '../../../src/detect/detectors/structural/toolLoop.js';
import { toolThrashing } from '../../../src/detect/detectors/structural/toolThrashing.js';
import type { Step, Trace } from '../../../src/trace/schema.js';
import { llm, makeTrace, retrieval, tool } from '../../helpers/traceBuilder.js';
import { runDetector } from '../tester.js';

const N = 300_000;

/** A trace of `n` steps cycling through the given (parsed) steps, with `fields` on the trace. */
function longTrace(cycle: Step[], n: number, fields: Partial<Trace> = {}): Trace {
  const t = makeTrace([], { output: 'done', ...fields });
  t.steps = Array.from({ length: n }, (_, i) => cycle[i % cycle.length]!);
  return t;
}
const parsed = (...steps: Parameters<typeof makeTrace>[0]): Step[] => makeTrace(steps).steps;

describe('structural detectors on runs of 300,000 steps', () => {
  it('stepSpan', () => {
    const steps = Array.from({ length: N }, (_, i) => N - i);
    expect(stepSpan(steps)).toBe('steps 1–300000');
  });

  it('REASONING_STALL and COST_SPIKE on 300,000 LLM calls', () => {
    const t = longTrace(parsed(llm()), N, { availableTools: ['search'] });
    expect(runDetector(reasoningStall, t)[0]?.message).toMatch(
      /^300,000 LLM calls for 0 tool calls: 300,000× LLM calls per tool call .* \(steps 1–300000\)$/,
    );
    expect(runDetector(costSpike, t)[0]?.message).toMatch(/over 300,000 LLM calls .*\(steps 1–300000\)$/);
  });

  it('TOOL_LOOP, TOOL_THRASHING, RETRY_STORM and CASCADING_TOOL_FAILURE on 300,000 failing tool calls', () => {
    const failing = (name: string) => tool(name, { status: 'error', error: 'boom' });
    expect(runDetector(toolLoop, longTrace(parsed(failing('a')), N))[0]?.message).toMatch(
      /^a called 300,000× in 300,000 tool calls \(steps 1–300000\)/,
    );
    const ab = longTrace(parsed(failing('a'), failing('b')), N);
    expect(runDetector(toolThrashing, ab)[0]?.message).toMatch(/for 300,000 consecutive tool calls/);
    expect(runDetector(retryStorm, ab)[0]?.message).toMatch(/^a failed 150,000× in a row/);
    expect(runDetector(cascadingToolFailure, ab)[0]?.message).toBe(
      '300,000 consecutive tool failures across 2 tools (a, b) (steps 1–300000)',
    );
  });

  it('RAG_EMPTY_RETRIEVAL on a retrieval of 300,000 low-scoring results', () => {
    const results = Array.from({ length: N }, (_, i) => ({ score: i === 7 ? 0.2 : 0.1 }));
    const t = makeTrace([retrieval({ results: [{ score: 0.1 }] }), llm()], { output: 'x' });
    (t.steps[0] as Extract<Step, { type: 'retrieval' }>).results = results;
    expect(runDetector(ragEmptyRetrieval, t)[0]?.message).toContain(
      'step 1 returned 300,000 results, best score 0.2 < 0.3',
    );
  });

  it('LLM_TRUNCATION_LOOP counts back-to-back truncations of a long run in one walk', () => {
    // Looking up each truncated call's position among the LLM calls was quadratic: minutes here.
    const t = longTrace(parsed(llm({ finishReason: 'length' }), tool('a'), llm()), N);
    const [s] = runDetector(llmTruncationLoop, t);
    expect(s?.message).toBe(
      '100,000 LLM calls hit the output token limit (finish reason length) (steps 1–299998)',
    );
    const back = longTrace(parsed(llm({ finishReason: 'length' })), N);
    expect(runDetector(llmTruncationLoop, back)[0]?.message).toMatch(/, 300,000 of them back to back$/);
  });
});

/**
 * The skeleton analyze() keeps of a trace whose baseline detectors wait for the input's own
 * baselines must make them decide exactly as the whole trace does, with a baseline and without.
 */
import { describe, expect, it } from 'vitest';
import { baselineSkeleton } from '../../src/detect/baselineSkeleton.js';
import type { BaselineValue, DetectContext } from '../../src/detect/detector.js';
import { detectors } from '../../src/detect/registry.js';
import { createPricer } from '../../src/pricing/pricer.js';
import { measureTrace } from '../../src/trace/measure.js';
import { TraceSchema, type Trace } from '../../src/trace/schema.js';
import { llm, makeTrace, message, retrieval, state, tool } from '../helpers/traceBuilder.js';

const baselineDetectors = detectors.filter((d) => d.meta.baseline !== undefined);
const pricer = createPricer();

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 10, 0, s)).toISOString();

/** Runs of several shapes: timed steps, times only on steps, chat turns, state, a listed tool. */
const traces: Trace[] = [
  makeTrace(
    [
      llm({
        input: 'THE PROMPT',
        output: 'THE COMPLETION',
        usage: { inputTokens: 4_000, outputTokens: 300, cachedInputTokens: 1_000 },
        durationMs: 45_000,
      }),
      tool('bash', { args: { command: 'ls' }, result: 'a\nb', durationMs: 20_000 }),
      llm({ name: 'plan', usage: { inputTokens: 30_000, outputTokens: 900 }, durationMs: 2_000 }),
      retrieval({ query: 'docs', results: [{ content: 'x' }], durationMs: 16_000 }),
      llm({ usage: { inputTokens: 60_000, outputTokens: 100 }, durationMs: 1_000 }),
    ],
    { id: 'timed', startedAt: at(0), endedAt: at(59), status: 'ok' },
  ),
  makeTrace(
    [
      llm({ startedAt: at(0), durationMs: 1_000 }),
      llm({ startedAt: at(2), durationMs: 1_000 }),
      message('user', 'and then?'),
      llm({ startedAt: at(5), durationMs: 1_000 }),
      state({ step: 1 }),
      llm({ startedAt: at(400), durationMs: 31_000, usage: { inputTokens: 9_000, outputTokens: 10 } }),
      llm({ startedAt: at(500), durationMs: 1_000 }),
      llm({ startedAt: at(600), durationMs: 1_000 }),
    ],
    { id: 'step-times', availableTools: ['search', 'book'], outcome: { success: false, source: 'test' } },
  ),
  makeTrace(
    Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0 ? llm({ usage: { inputTokens: 500 * (i + 1), outputTokens: 50 } }) : tool('python'),
    ),
    { id: 'long', agentVersion: '2', status: 'error' },
  ),
];

const contexts = (b: BaselineValue | undefined) =>
  baselineDetectors.map((d) => ({
    detector: d,
    ctx: { config: d.meta.config.parse({}), pricer, baseline: b } as DetectContext,
  }));

describe('baselineSkeleton', () => {
  it('is a valid trace with none of the content: no prompt, output, arguments, results or state', () => {
    const skeleton = baselineSkeleton(traces[0]!);
    const text = JSON.stringify(skeleton);
    for (const content of ['THE PROMPT', 'THE COMPLETION', '"ls"', 'a\\nb', 'docs', '"x"'])
      expect(text).not.toContain(content);
    expect(TraceSchema.parse(skeleton)).toEqual(skeleton);
    expect(TraceSchema.parse(baselineSkeleton(traces[1]!))).toEqual(baselineSkeleton(traces[1]!));
  });

  it.each([
    ['static fallbacks', undefined],
    ['a baseline that makes them fire', { p75: 1, runs: 20, source: 'input' } as BaselineValue],
    ['a baseline they stay under', { p75: 1e9, runs: 20, source: 'input' } as BaselineValue],
  ])('makes the six baseline detectors decide as the whole trace does, with %s', (_, baseline) => {
    expect(baselineDetectors.map((d) => d.meta.id).sort()).toEqual([
      'CONTEXT_BLOAT',
      'COST_SPIKE',
      'REASONING_STALL',
      'SESSION_LATENCY',
      'SLOW_STEP',
      'STEP_COUNT_INFLATION',
    ]);
    let fired = 0;
    for (const trace of traces) {
      for (const { detector, ctx } of contexts(baseline)) {
        const whole = detector.detect(trace, ctx);
        const skeleton = detector.detect(baselineSkeleton(trace), ctx);
        expect(skeleton, `${detector.meta.id} on ${trace.id}`).toEqual(whole);
        fired += whole.length;
      }
    }
    // The fixtures are worth comparing only if the detectors have something to say about them.
    if (baseline?.p75 !== 1e9) expect(fired).toBeGreaterThan(3);
  });

  it('keeps the run-level measures the baselines learn, status and outcome', () => {
    for (const trace of traces) {
      const { costUsd: _whole, ...whole } = measureTrace(trace);
      const { costUsd: _skeleton, ...skeleton } = measureTrace(baselineSkeleton(trace));
      expect(skeleton).toEqual(whole);
      expect(baselineSkeleton(trace).status).toBe(trace.status);
      expect(baselineSkeleton(trace).outcome).toEqual(trace.outcome);
    }
  });
});

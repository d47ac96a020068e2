import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { createTraceAnalyser } from '../../src/traceAnalyser.js';
import type { TraceInput } from '../../src/trace/schema.js';

const loopingTrace: TraceInput = {
  id: 'loop-1',
  agentId: 'support',
  status: 'ok',
  steps: [
    { type: 'llm', model: 'gpt-4o', input: 'weather?', usage: { inputTokens: 900, outputTokens: 40 } },
    ...Array.from({ length: 5 }, () => ({
      type: 'tool' as const,
      name: 'get_weather',
      args: { city: 'Paris' },
      status: 'ok' as const,
    })),
  ],
};

describe('createTraceAnalyser', () => {
  it('gives one trace the signals and statuses analyze() reports for it', async () => {
    const analyser = createTraceAnalyser({ config: {}, baselines: false });
    const one = analyser.analyse(structuredClone(loopingTrace));
    const report = await analyze([structuredClone(loopingTrace)], { config: {}, baselines: false });
    expect(one.signals.map((s) => [s.detector, s.status])).toEqual(
      report.signals.map((s) => [s.detector, s.status]),
    );
    expect(one.signals.some((s) => s.detector === 'TOOL_LOOP')).toBe(true);
    expect(one.summary.costUsd).toBeCloseTo(report.traces[0]!.costUsd, 10);
  });

  it('analyses the same object once, so several matchers share one run', () => {
    const analyser = createTraceAnalyser({ config: {}, baselines: false });
    const t = structuredClone(loopingTrace);
    expect(analyser.analyse(t)).toBe(analyser.analyse(t));
  });

  it('rejects an invalid trace naming the field to fix', () => {
    const analyser = createTraceAnalyser({ config: {}, baselines: false });
    expect(() => analyser.analyse({ id: 'x', status: 'ok', steps: [{ type: 'tool' }] })).toThrow(
      /steps\[0\]\.name/,
    );
  });
});

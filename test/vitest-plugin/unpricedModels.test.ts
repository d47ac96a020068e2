/**
 * A Vitest run's report names the models it could not price, as `tracejury analyze` does: the
 * traces are priced in the test workers, so each analysis carries its unpriced models through the
 * test's meta to the report.
 */
import { describe, expect, it } from 'vitest';
import { buildTestRunReport, type TestRunEntry } from '../../src/report/testRunReport.js';
import { createTraceAnalyser } from '../../src/traceAnalyser.js';
import type { TraceInput } from '../../src/trace/schema.js';
import { metaOf, recordAnalysis, type TaskLike } from '../../vitest-plugin/shared/meta.js';

const call = (model: string) => ({
  type: 'llm' as const,
  model,
  input: 'Summarise the ticket in one line.',
  output: 'Customer wants a refund for a late order.',
  usage: { inputTokens: 200, outputTokens: 12 },
});

const trace = (id: string, models: string[]): TraceInput => ({
  id,
  agentId: 'triage',
  steps: models.map(call),
});

function entry(name: string, task: TaskLike): TestRunEntry {
  const { traces, trajectories, verdicts, sessions, inputErrors } = metaOf(task);
  return {
    name,
    file: 'evals.test.ts',
    state: 'passed',
    attempts: [true],
    errors: [],
    traces,
    trajectories,
    verdicts,
    sessions,
    inputErrors,
  };
}

describe('unpriced models in a Vitest run', () => {
  const analyser = createTraceAnalyser({ config: {}, baselines: false });

  it('are counted per call across tests, and the report says how to price them', () => {
    const a: TaskLike = { meta: {} };
    const b: TaskLike = { meta: {} };
    recordAnalysis(a, analyser.analyse(trace('t1', ['gpt-4o-mini', 'acme-reasoner-9', 'acme-reasoner-9'])));
    recordAnalysis(b, analyser.analyse(trace('t2', ['acme-reasoner-9', 'house-llm'])));
    const report = buildTestRunReport([entry('a', a), entry('b', b)], { failOn: ['critical', 'high'] });
    expect(report.totals.unknownModels).toEqual([
      { model: 'acme-reasoner-9', calls: 3 },
      { model: 'house-llm', calls: 1 },
    ]);
    expect(report.notes.join('\n')).toMatch(/2 models have no recorded cost and no price \(acme-reasoner-9/);
    expect(report.notes.join('\n')).toMatch(/add them under prices: in tracejury\.yml/);
  });

  it('a run whose models are all priced lists none, and its tests carry nothing extra', () => {
    const task: TaskLike = { meta: {} };
    recordAnalysis(task, analyser.analyse(trace('t3', ['gpt-4o-mini'])));
    expect(metaOf(task).traces[0]).not.toHaveProperty('unpricedModels');
    const report = buildTestRunReport([entry('c', task)], { failOn: ['critical', 'high'] });
    expect(report.totals.unknownModels).toEqual([]);
    expect(report.notes.join('\n')).not.toMatch(/no recorded cost/);
  });
});

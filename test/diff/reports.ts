/** Synthetic Report v1 objects for diff tests: traces and findings, with totals that add up. */
import { mulberry32 } from '../../src/diff/prng.js';
import { wasteTotals } from '../../src/report/wasteTotals.js';
import {
  ReportSchema,
  type Report,
  type ReportSignal,
  type SessionScore,
  type TraceSummary,
} from '../../src/report/schema.js';
import type { Verdict } from '../../src/judge/verdict.js';

export interface TraceSpec {
  id: string;
  file?: string;
  line?: number;
  costUsd?: number;
  test?: string;
  /** The task the run attempted (traces[].task). */
  task?: string;
  /** Its recorded outcome. */
  success?: boolean;
  agentId?: string;
  /** LLM calls with no token counts and no recorded cost. */
  unmeasured?: number;
}

export function trace(t: TraceSpec): TraceSummary {
  return {
    id: t.id,
    file: t.file ?? 'runs.jsonl',
    ...(t.line !== undefined ? { line: t.line } : {}),
    format: 'native',
    agentId: t.agentId ?? 'agent',
    status: 'ok',
    steps: 3,
    llmCalls: 2,
    toolCalls: 1,
    tokens: { input: 100, output: 20 },
    costUsd: t.costUsd ?? 0.01,
    unpricedLlmCalls: 0,
    signals: 0,
    ...(t.test !== undefined ? { test: t.test } : {}),
    ...(t.task !== undefined ? { task: t.task } : {}),
    ...(t.success !== undefined ? { outcome: { success: t.success, source: 'test' } } : {}),
    ...(t.unmeasured !== undefined ? { unmeasuredLlmCalls: t.unmeasured } : {}),
  };
}

export function finding(fields: Partial<ReportSignal> & { traceId: string }): ReportSignal {
  return {
    detector: 'TOOL_LOOP',
    severity: 'high',
    confidence: 0.9,
    tier: 1,
    shadow: false,
    steps: [1],
    message: 'loop',
    file: 'runs.jsonl',
    status: 'finding',
    ...fields,
  };
}

export function verdict(passed: boolean, traceId = 't'): Verdict {
  return {
    traceId,
    passed,
    indeterminate: false,
    score: passed ? 0.9 : 0.2,
    confidence: 0.9,
    disagreement: 0,
    highDisagreement: false,
    modelsUsed: ['gpt-4o-mini'],
    latencyMs: 10,
    costUsd: 0.001,
    judges: [],
  };
}

export function report(
  parts: {
    traces?: TraceSummary[];
    signals?: ReportSignal[];
    verdicts?: Verdict[];
    sessions?: SessionScore[];
    review?: Report['review'];
    judgeUsd?: number;
    tests?: Report['tests'];
    attribution?: Report['attribution'];
  } = {},
): Report {
  const traces = parts.traces ?? [];
  const signals = parts.signals ?? [];
  return ReportSchema.parse({
    schemaVersion: 1,
    schemaMinor: 4,
    tool: { name: 'tracejury', version: '0.1.0' },
    generatedAt: '2026-01-01T00:00:00.000Z',
    inputs: {
      files: new Set(traces.map((t) => t.file)).size,
      traces: traces.length,
      records: traces.length,
      errors: [],
      errorCount: 0,
      formats: { native: traces.length },
    },
    totals: {
      steps: 0,
      llmCalls: 0,
      toolCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: traces.reduce((n, t) => n + t.costUsd, 0),
      unknownModels: [],
    },
    traces,
    signals,
    waste: wasteTotals(signals),
    verdicts: parts.verdicts ?? [],
    sessions: parts.sessions ?? [],
    review: parts.review ?? [],
    cost: { judgeUsd: parts.judgeUsd ?? 0, byTier: {} },
    gate: { passed: true, reasons: [] },
    notes: [],
    ...(parts.tests ? { tests: parts.tests } : {}),
    ...(parts.attribution ? { attribution: parts.attribution } : {}),
  });
}

/**
 * A run of tasks: `outcomes[i]` lists the recorded outcomes of task i's runs (one trace each), in
 * file `file`; `flag(i, r)` puts a high TOOL_LOOP finding on run r of task i.
 */
export function taskRun(
  outcomes: readonly (readonly boolean[])[],
  options: {
    file?: string;
    flag?: (task: number, run: number) => boolean;
    task?: (i: number) => string;
    agentId?: string;
  } = {},
): Report {
  const file = options.file ?? 'runs.jsonl';
  const traces: TraceSummary[] = [];
  const signals: ReportSignal[] = [];
  outcomes.forEach((runs, i) =>
    runs.forEach((success, r) => {
      const id = `${file}-task-${i}-run-${r}`;
      traces.push(
        trace({
          id,
          file,
          task: options.task?.(i) ?? `task-${i}`,
          success,
          ...(options.agentId ? { agentId: options.agentId } : {}),
        }),
      );
      if (options.flag?.(i, r)) signals.push(finding({ traceId: id, file }));
    }),
  );
  return report({ traces, signals });
}

/**
 * A run of `n` traces in which each trace, with probability `p`, has a RETRY_LOOP finding costing
 * about $0.02 (and a cost to match): the seeded pseudo-random stand-in for a real run.
 */
export function syntheticRun(seed: number, n: number, p: number, extra?: { retryLoopShare: number }): Report {
  const random = mulberry32(seed);
  const traces: TraceSummary[] = [];
  const signals: ReportSignal[] = [];
  for (let i = 0; i < n; i++) {
    const id = `t${i}`;
    let cost = 0.01 + random() * 0.01;
    if (random() < p) {
      const waste = 0.015 + random() * 0.01;
      cost += waste;
      signals.push(
        finding({
          traceId: id,
          detector: 'FALLBACK_STORM',
          severity: 'medium',
          wasteUsd: waste,
          wasteTokens: 500,
        }),
      );
    }
    if (extra && random() < extra.retryLoopShare) {
      const waste = 0.03 + random() * 0.01;
      cost += waste;
      signals.push(
        finding({
          traceId: id,
          detector: 'RETRY_LOOP',
          severity: 'medium',
          wasteUsd: waste,
          wasteTokens: 900,
        }),
      );
    }
    traces.push(trace({ id, costUsd: cost }));
  }
  return report({ traces, signals });
}

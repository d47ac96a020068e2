/**
 * The run every real-library fixture records (test/fixtures/generate): lookup_order fails once,
 * is retried, then get_weather is called three times with identical args, then a final answer.
 * Checks a fixture loads through loadTraces with its tool calls, failures and causal order, and
 * that analyze flags the loop.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { loadTraces } from '../../src/trace/load.js';
import type { LoadedTrace, LlmStep, ToolStep, Trace } from '../../src/trace/schema.js';
import { EXPECTED_SHAPE, shape as shapeOfTrace } from '../fixtures/generate/scenario.mjs';

export const fixture = (p: string) => fileURLToPath(new URL(`../fixtures/${p}`, import.meta.url));

export async function loadRun(path: string): Promise<LoadedTrace> {
  const { traces, stats } = await loadTraces(fixture(path));
  expect(stats.errors).toEqual([]);
  expect(traces).toHaveLength(1);
  return traces[0]!;
}

/** The steps as `llm` / `tool:name:status`, in trace order. */
export const shape = (loaded: LoadedTrace | Trace): string[] =>
  shapeOfTrace('trace' in loaded ? loaded.trace : loaded);

export { EXPECTED_SHAPE };

/** A trace loaded from a fixture, or one captured live (vitest-plugin captureTrace). */
export function expectRun(loaded: LoadedTrace | Trace): void {
  const trace = 'trace' in loaded ? loaded.trace : loaded;
  expect(shape(trace)).toEqual(EXPECTED_SHAPE);
  const tools = trace.steps.filter((s): s is ToolStep => s.type === 'tool');
  expect(tools[0]).toMatchObject({
    args: { orderId: 'A1' },
    status: 'error',
    error: 'order service timed out',
  });
  expect(tools[1]).toMatchObject({
    status: 'ok',
    result: { orderId: 'A1', status: 'shipped', eta: 'tomorrow' },
  });
  for (const t of tools.slice(2)) expect(t.args).toEqual({ city: 'Paris' });
  const llms = trace.steps.filter((s): s is LlmStep => s.type === 'llm');
  expect(llms.map((s) => s.usage.inputTokens)).toEqual([110, 120, 130, 140, 150, 160]);
  expect(llms.every((s) => s.usage.outputTokens === 12)).toBe(true);
  // Each LLM call asks for the tool that follows it; the last one answers.
  llms.slice(0, 5).forEach((s, i) => {
    const out = s.output as { toolCalls?: { name: string }[] };
    expect(out.toolCalls?.map((c) => c.name)).toEqual([tools[i]!.name]);
  });
  // …so each tool step is linked to the LLM step that issued it (by call id, else by name): a
  // batch of one, the step just before it.
  expect(tools.map((t) => t.issuedBy)).toEqual([1, 3, 5, 7, 9]);
  const last = llms[5]!.output;
  expect(typeof last === 'string' ? last : last?.content).toBe(
    'Order A1 ships tomorrow; it is 18°C and sunny in Paris.',
  );
  expect(trace.agentId).toBe('support-agent');
  expect(trace.status).toBe('ok');
  expect(trace.metadata?.unreadSpans).toBeUndefined();
}

export async function analyzeRun(path: string) {
  return analyze(fixture(path), { stateDir: mkdtempSync(join(tmpdir(), 'tracejury-real-')) });
}

/** analyze flags the three identical get_weather calls, and the run reads whole (no unread note). */
export async function expectLoopFlagged(path: string): Promise<void> {
  const report = await analyzeRun(path);
  const loop = report.signals.filter((s) => s.detector === 'TOOL_LOOP' || s.detector === 'RETRY_STORM');
  expect(loop.length).toBeGreaterThan(0);
  expect(report.gate.passed).toBe(false);
  expect(report.traces[0]!.toolCalls).toBe(5);
  expect(report.traces[0]!.unreadSpans).toBeUndefined();
  expect(report.notes.some((n) => n.includes('could not read'))).toBe(false);
}

/**
 * The OpenAI Agents SDK's own trace export: the request bodies its BatchTraceProcessor and
 * OpenAITracingExporter send (test/fixtures/generate/openai-agents-export.mjs, @openai/agents
 * 0.20.0), read as the `openai-agents` format. Before, such a file was refused as no trace at all.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraces } from '../../../src/trace/load.js';
import type { LlmStep, ToolStep } from '../../../src/trace/schema.js';
import { EXPECTED_SHAPE, analyzeRun, fixture, shape } from '../../helpers/realLibraryRun.js';
import { readJson } from './producerFixture.js';

const FIXTURE = 'openai-agents/agents-sdk-export.jsonl';

describe("the OpenAI Agents SDK's trace export", () => {
  it('reads the run whole: each generation an LLM step, each function a tool step', async () => {
    const { trace, notes } = await readJson(FIXTURE);
    expect(notes).toEqual([]);
    expect(shape(trace)).toEqual(EXPECTED_SHAPE);
    const llms = trace.steps.filter((s): s is LlmStep => s.type === 'llm');
    const tools = trace.steps.filter((s): s is ToolStep => s.type === 'tool');
    expect(llms.map((s) => s.usage.inputTokens)).toEqual([110, 120, 130, 140, 150, 160]);
    expect(llms.every((s) => s.model === 'gpt-4o-mini-2024-07-18' && (s.costUsd ?? 0) > 0)).toBe(true);
    expect(tools.map((t) => t.issuedBy)).toEqual([1, 3, 5, 7, 9]);
    // The SDK redacts a tool's error details in its export: the failure is kept, not its message.
    expect(tools[0]).toMatchObject({ name: 'lookup_order', args: { orderId: 'A1' }, status: 'error' });
    expect(tools[0]!.error).toMatch(/Error running tool/);
    expect(tools[1]!.result).toEqual({ orderId: 'A1', status: 'shipped', eta: 'tomorrow' });
    expect(trace).toMatchObject({
      agentId: 'support-agent',
      status: 'ok',
      input: 'Where is my order A1, and what is the weather in Paris?',
      output: 'Order A1 ships tomorrow; it is 18°C and sunny in Paris.',
      availableTools: ['lookup_order', 'get_weather'],
    });
  });

  it('is detected by its shape, and analyze flags the loop in it', async () => {
    const report = await analyzeRun(FIXTURE);
    expect(report.inputs.formats).toEqual({ 'openai-agents': 1 });
    expect(report.signals.some((s) => s.detector === 'TOOL_LOOP' || s.detector === 'RETRY_STORM')).toBe(true);
  });

  it('names the item it cannot place, and reads the rest', async () => {
    const good = readFileSync(fixture(FIXTURE), 'utf8').trim();
    const bad = JSON.stringify({
      data: [{ object: 'trace.span', id: 'span_x', span_data: { type: 'function' } }],
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'tj-agents-export-'));
    const file = path.join(dir, 'export.jsonl');
    writeFileSync(file, `${good}\n${bad}\n`);
    const { traces, stats } = await loadTraces(file);
    expect(stats.errors).toEqual([
      expect.objectContaining({ file, line: 2, field: 'data[0].trace_id', message: 'missing' }),
    ]);
    expect(traces).toHaveLength(1);
    expect(shape(traces[0]!.trace)).toEqual(EXPECTED_SHAPE);
  });
});

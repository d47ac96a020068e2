/**
 * Costs that match the bill: every importer that records cache reads and writes passes them on, and
 * the loader prices them at the table's cache rates, each call at the tier of its own prompt. The
 * expected dollars are computed by hand from the table's rates (USD per million tokens):
 *   gpt-4o                 input 2.50, cache read 1.25, output 10
 *   claude-3-5-sonnet      input 3, cache write 3.75, cache read 0.30, output 15
 *   gemini-3-pro-preview   input 2 / 4, cache read 0.20 / 0.40, output 12 / 18 (prompts ≤ 200k / above)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { createPricer, type UnitRates } from '../../src/pricing/pricer.js';
import type { InputFormat } from '../../src/trace/importer.js';
import { loadTraces } from '../../src/trace/load.js';
import type { LlmStep } from '../../src/trace/schema.js';

const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-cached-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The LLM steps of a recording written to a file and loaded (priced) as `format`. */
async function llmSteps(name: string, format: InputFormat, content: unknown): Promise<LlmStep[]> {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  const { traces, stats } = await loadTraces(file, { inputFormat: format });
  expect(stats.errors).toEqual([]);
  return traces.flatMap((t) => t.trace.steps.filter((s): s is LlmStep => s.type === 'llm'));
}

const jsonl = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

/** One OTLP span a line, as the collector's file exporter writes them. */
function span(attributes: Record<string, unknown>, id = 'a1') {
  return {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: `00000000000000${id}`,
    name: 'chat',
    kind: 3,
    startTimeUnixNano: '1741946400000000000',
    endTimeUnixNano: '1741946401000000000',
    attributes,
    status: { code: 0 },
  };
}

// gpt-4o: 10,000 prompt tokens of which 8,000 cached, 500 out:
// 2,000 × 2.50 + 8,000 × 1.25 + 500 × 10 = 5,000 + 10,000 + 5,000 → $0.02.
const OPENAI_USD = 0.02;
// claude-3-5-sonnet: 1,000 uncached + 20,000 read + 4,000 written, 200 out:
// 1,000 × 3 + 20,000 × 0.30 + 4,000 × 3.75 + 200 × 15 = 3,000 + 6,000 + 15,000 + 3,000 → $0.027.
const ANTHROPIC_USD = 0.027;
const ANTHROPIC_USAGE = { inputTokens: 25_000, cachedInputTokens: 20_000, cacheWriteInputTokens: 4_000 };
// gemini-3-pro-preview, a 20,000-token prompt (base tier) with 16,000 cached, 300 + 200 thinking out:
// 4,000 × 2 + 16,000 × 0.20 + 500 × 12 = 8,000 + 3,200 + 6,000 → $0.0172.
const GEMINI_USD = 0.0172;

describe('cached input tokens, read by every importer and priced at the cache rates', () => {
  it('openai-messages: OpenAI, Anthropic and Gemini usage on assistant messages', async () => {
    const steps = await llmSteps('chat.json', 'openai-messages', {
      messages: [
        { role: 'user', content: 'fix the bug' },
        {
          role: 'assistant',
          model: 'gpt-4o',
          content: 'looking',
          usage: {
            prompt_tokens: 10_000,
            completion_tokens: 500,
            prompt_tokens_details: { cached_tokens: 8_000 },
          },
        },
        { role: 'user', content: 'go on' },
        {
          role: 'assistant',
          model: 'claude-3-5-sonnet-20241022',
          content: 'done',
          usage: {
            input_tokens: 1_000,
            output_tokens: 200,
            cache_read_input_tokens: 20_000,
            cache_creation_input_tokens: 4_000,
          },
        },
        { role: 'user', content: 'and now?' },
        {
          role: 'assistant',
          model: 'gemini-3-pro-preview',
          content: 'all done',
          usage: {
            promptTokenCount: 20_000,
            candidatesTokenCount: 300,
            thoughtsTokenCount: 200,
            cachedContentTokenCount: 16_000,
          },
        },
      ],
    });
    expect(steps.map((s) => s.usage)).toEqual([
      { inputTokens: 10_000, outputTokens: 500, cachedInputTokens: 8_000 },
      { ...ANTHROPIC_USAGE, outputTokens: 200 },
      { inputTokens: 20_000, outputTokens: 500, cachedInputTokens: 16_000 },
    ]);
    expect(steps[0]!.costUsd).toBeCloseTo(OPENAI_USD, 12);
    expect(steps[1]!.costUsd).toBeCloseTo(ANTHROPIC_USD, 12);
    expect(steps[2]!.costUsd).toBeCloseTo(GEMINI_USD, 12);
    expect(steps.map((s) => s.costSource)).toEqual(['price-table', 'price-table', 'price-table']);
  });

  it('records: OpenAI usage with cached_tokens, and Anthropic usage with cache reads and writes', async () => {
    const steps = await llmSteps(
      'calls.jsonl',
      'records',
      jsonl(
        {
          traceId: 't1',
          startTime: '2025-01-01T00:00:00Z',
          input: { model: 'gpt-4o', prompt: 'a' },
          usage: {
            prompt_tokens: 10_000,
            completion_tokens: 500,
            prompt_tokens_details: { cached_tokens: 8_000 },
          },
        },
        {
          traceId: 't1',
          startTime: '2025-01-01T00:00:05Z',
          input: { model: 'claude-3-5-sonnet-20241022', prompt: 'b' },
          usage: {
            input_tokens: 1_000,
            output_tokens: 200,
            cache_read_input_tokens: 20_000,
            cache_creation_input_tokens: 4_000,
          },
        },
      ),
    );
    expect(steps[0]!.usage).toEqual({ inputTokens: 10_000, outputTokens: 500, cachedInputTokens: 8_000 });
    expect(steps[1]!.usage).toEqual({ ...ANTHROPIC_USAGE, outputTokens: 200 });
    expect(steps[0]!.costUsd).toBeCloseTo(OPENAI_USD, 12);
    expect(steps[1]!.costUsd).toBeCloseTo(ANTHROPIC_USD, 12);
  });

  it('otel: the GenAI cache_read and cache_creation attributes (part of gen_ai.usage.input_tokens)', async () => {
    const steps = await llmSteps(
      'spans.jsonl',
      'otel',
      jsonl(
        span({
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'anthropic',
          'gen_ai.request.model': 'claude-3-5-sonnet-20241022',
          'gen_ai.usage.input_tokens': 25_000,
          'gen_ai.usage.output_tokens': 200,
          'gen_ai.usage.cache_read.input_tokens': 20_000,
          'gen_ai.usage.cache_creation.input_tokens': 4_000,
        }),
      ),
    );
    expect(steps[0]!.usage).toEqual({ ...ANTHROPIC_USAGE, outputTokens: 200 });
    expect(steps[0]!.costUsd).toBeCloseTo(ANTHROPIC_USD, 12);
  });

  it('openinference: llm.token_count.prompt_details.cache_read and cache_write', async () => {
    const steps = await llmSteps(
      'oi.jsonl',
      'openinference',
      jsonl(
        span({
          'openinference.span.kind': 'LLM',
          'llm.system': 'anthropic',
          'llm.model_name': 'claude-3-5-sonnet-20241022',
          'llm.token_count.prompt': 25_000,
          'llm.token_count.completion': 200,
          'llm.token_count.prompt_details.cache_read': 20_000,
          'llm.token_count.prompt_details.cache_write': 4_000,
        }),
      ),
    );
    expect(steps[0]!.usage).toEqual({ ...ANTHROPIC_USAGE, outputTokens: 200 });
    expect(steps[0]!.costUsd).toBeCloseTo(ANTHROPIC_USD, 12);
  });

  it('langfuse: usageDetails keeps cache reads and writes apart from input, and they add up', async () => {
    const steps = await llmSteps('langfuse.json', 'langfuse', {
      id: 'lf-1',
      timestamp: '2025-06-11T08:15:02.114Z',
      name: 'agent',
      observations: [
        {
          id: 'g1',
          traceId: 'lf-1',
          type: 'GENERATION',
          name: 'chat',
          startTime: '2025-06-11T08:15:02.120Z',
          endTime: '2025-06-11T08:15:03.120Z',
          model: 'claude-3-5-sonnet-20241022',
          usageDetails: {
            input: 1_000,
            output: 200,
            cache_read_input_tokens: 20_000,
            cache_creation_input_tokens: 4_000,
            total: 25_200,
          },
        },
        {
          id: 'g2',
          traceId: 'lf-1',
          type: 'GENERATION',
          name: 'chat',
          startTime: '2025-06-11T08:15:04.120Z',
          endTime: '2025-06-11T08:15:05.120Z',
          model: 'gpt-4o',
          usageDetails: { input: 2_000, input_cached_tokens: 8_000, output: 500 },
        },
      ],
    });
    expect(steps.map((s) => s.usage)).toEqual([
      { ...ANTHROPIC_USAGE, outputTokens: 200 },
      { inputTokens: 10_000, outputTokens: 500, cachedInputTokens: 8_000 },
    ]);
    expect(steps[0]!.costUsd).toBeCloseTo(ANTHROPIC_USD, 12);
    expect(steps[1]!.costUsd).toBeCloseTo(OPENAI_USD, 12);
  });

  it('records: a cache count that is not a number is an error naming its line and field; the next record is read', async () => {
    const file = path.join(dir, 'bad-cache.jsonl');
    writeFileSync(
      file,
      jsonl(
        {
          traceId: 'bad',
          input: { model: 'gpt-4o', prompt: 'a' },
          usage: {
            prompt_tokens: 100,
            completion_tokens: 5,
            prompt_tokens_details: { cached_tokens: 'lots' },
          },
        },
        {
          traceId: 'good',
          input: { model: 'gpt-4o', prompt: 'b' },
          usage: {
            prompt_tokens: 10_000,
            completion_tokens: 500,
            prompt_tokens_details: { cached_tokens: 8_000 },
          },
        },
      ),
    );
    const { traces, stats } = await loadTraces(file, { inputFormat: 'records' });
    expect(stats.errors).toEqual([
      expect.objectContaining({
        line: 1,
        field: 'usage.prompt_tokens_details.cached_tokens',
        message: expect.stringContaining('expected a non-negative number, got "lots"'),
      }),
    ]);
    expect(traces.map((t) => t.trace.id)).toEqual(['good']);
    expect((traces[0]!.trace.steps[0] as LlmStep).costUsd).toBeCloseTo(OPENAI_USD, 12);
  });

  it('a recorded cost wins over the price table, cached tokens or not', async () => {
    const steps = await llmSteps(
      'recorded.jsonl',
      'records',
      jsonl({
        traceId: 't1',
        input: { model: 'gpt-4o', prompt: 'a' },
        usage: {
          prompt_tokens: 10_000,
          completion_tokens: 500,
          prompt_tokens_details: { cached_tokens: 8_000 },
        },
        cost: 0.5,
      }),
    );
    expect(steps[0]).toMatchObject({ costUsd: 0.5, costSource: 'recorded' });
  });
});

describe('long-context tiers: each call at the tier of its own prompt', () => {
  const pricer = createPricer();

  it('prices a 20k-token prompt at the base tier and a 250k-token prompt at the > 200k tier', () => {
    const small = pricer.quote('gemini-3-pro-preview', { inputTokens: 20_000, outputTokens: 1_000 });
    // 20,000 × 2 + 1,000 × 12 = 52,000 → $0.052.
    expect(small?.usd).toBeCloseTo(0.052, 12);
    const large = pricer.quote('gemini-3-pro-preview', {
      inputTokens: 250_000,
      cachedInputTokens: 200_000,
      outputTokens: 1_000,
    });
    // 50,000 × 4 + 200,000 × 0.40 + 1,000 × 18 = 200,000 + 80,000 + 18,000 → $0.298.
    expect(large?.usd).toBeCloseTo(0.298, 12);
  });

  it('a tier applies above its start: a prompt of exactly 200,000 tokens is still the base tier', () => {
    expect(pricer.quote('gemini-3-pro-preview', { inputTokens: 200_000, outputTokens: 0 })?.usd).toBeCloseTo(
      0.4,
      12,
    );
    expect(pricer.quote('gemini-3-pro-preview', { inputTokens: 200_001, outputTokens: 0 })?.usd).toBeCloseTo(
      200_001 * 4e-6,
      12,
    );
  });

  it('keeps the base tier as the model rates others read (the blend, embeddings)', () => {
    const rates = pricer.rates('gemini-3-pro-preview')!;
    const perMillion = (r: UnitRates) =>
      [r.inputPerToken, r.cachedInputPerToken, r.cacheWritePerToken, r.outputPerToken].map((x) =>
        Number((x * 1e6).toFixed(6)),
      );
    // No cache-write price in the table: writes are charged as input, as the table's own sum does.
    expect(perMillion(rates)).toEqual([2, 0.2, 2, 12]);
    expect(rates.tiers?.map((t) => [t.aboveInputTokens, ...perMillion(t)])).toEqual([
      [200_000, 4, 0.4, 4, 18],
    ]);
  });

  it('prices a config override with its own cache rates', async () => {
    const config = parseConfig(
      'prices:\n  acme-llm:\n    inputPer1M: 10\n    outputPer1M: 20\n    cachedInputPer1M: 1\n    cacheWritePer1M: 12\n',
      'tracejury.yml',
    );
    const report = await analyze(
      [
        {
          id: 'acme',
          steps: [
            {
              type: 'llm',
              model: 'acme-llm',
              usage: {
                inputTokens: 10_000,
                cachedInputTokens: 6_000,
                cacheWriteInputTokens: 3_000,
                outputTokens: 100,
              },
            },
          ],
        },
      ],
      { config, baselines: false },
    );
    // 1,000 × 10 + 6,000 × 1 + 3,000 × 12 + 100 × 20 = 10,000 + 6,000 + 36,000 + 2,000 → $0.054.
    expect(report.totals.costUsd).toBeCloseTo(0.054, 12);
  });
});

import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { createPricer } from '../../src/pricing/pricer.js';
import type { TraceInput } from '../../src/trace/schema.js';

const usage = { inputTokens: 1000, outputTokens: 100 };

describe('pricer', () => {
  it('counts an unpriced model for cost(), not for quote()', () => {
    const pricer = createPricer();
    expect(pricer.quote('acme-unknown-1', usage)).toBeUndefined();
    expect(pricer.unknownModels().size).toBe(0);
    expect(pricer.cost('acme-unknown-1', usage)).toBeUndefined();
    expect(pricer.cost('acme-unknown-1', usage)).toBeUndefined();
    expect(pricer.unknownModels()).toEqual(new Map([['acme-unknown-1', 2]]));
    // A known model is priced alike by both.
    expect(pricer.quote('gpt-4o', usage)).toEqual(pricer.cost('gpt-4o', usage));
    expect(pricer.unknownModels().size).toBe(1);
  });

  it('prices model names that carry their provider in front, as gateways write them', () => {
    const pricer = createPricer({ 'acme-llm-70b': { inputPer1M: 1, outputPer1M: 2 } });
    for (const [prefixed, bare] of [
      ['openai/gpt-4o-mini', 'gpt-4o-mini'],
      ['anthropic/claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-20241022'],
      ['openrouter/openai/gpt-4o', 'gpt-4o'],
    ]) {
      expect(pricer.quote(prefixed!, usage), prefixed).toEqual(pricer.quote(bare!, usage));
      expect(pricer.quote(prefixed!, usage), prefixed).toBeDefined();
    }
    // A config price for the bare name covers the prefixed one.
    const acme = pricer.quote('acme/acme-llm-70b', usage);
    expect(acme?.source).toBe('config');
    expect(acme?.usd).toBeCloseTo(0.0012, 10);
    expect(pricer.quote('acme/unknown-model', usage)).toBeUndefined();
  });

  it('rejects a misspelt price field instead of pricing the model at nothing', () => {
    expect(() =>
      parseConfig('prices:\n  acme-llm:\n    inputPer1M: 1\n    outputPer1m: 2\n', 'tracejury.yml'),
    ).toThrow(/tracejury\.yml:4: unknown key "prices\.acme-llm\.outputPer1m"/);
  });

  it('reports each LLM call of an unpriced model once, whichever detectors price it again', async () => {
    // Four identical calls a second apart: the waste detectors price them again (a retry loop),
    // and the cost budget (on by default) prices every call without a recorded cost.
    const trace: TraceInput = {
      id: 'unpriced',
      steps: Array.from({ length: 4 }, (_, i) => ({
        type: 'llm' as const,
        model: 'acme-unknown-1',
        input: 'summarise the ticket',
        output: 'done',
        usage,
        startedAt: new Date(Date.UTC(2026, 10, 1, 10, 0, i)).toISOString(),
      })),
    };
    const report = await analyze([trace], { config: parseConfig('', 'tracejury.yml'), baselines: false });
    expect(report.totals.llmCalls).toBe(4);
    expect(report.totals.unknownModels).toEqual([{ model: 'acme-unknown-1', calls: 4 }]);
  });
});

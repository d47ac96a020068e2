/** Calls with no token counts and no recorded cost: their cost is unknown, never $0.00. */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import { renderText } from '../../src/report/renderText.js';
import { formatCost, formatWaste } from '../../src/report/summarise.js';
import type { TraceInput } from '../../src/trace/schema.js';

const llm = (tokens?: { inputTokens: number; outputTokens: number }) => ({
  type: 'llm' as const,
  model: 'gpt-4o',
  input: 'Where is my order?',
  output: 'On its way.',
  ...(tokens ? { usage: tokens } : {}),
});
const run = (id: string, steps: TraceInput['steps']): TraceInput => ({ id, agentId: 'support', steps });
const options = { config: {}, baselines: false, escalate: false } as const;

describe('LLM calls with no token counts and no recorded cost', () => {
  it('make the cost and waste of a run where no call has either unknown, with the count and what to do', async () => {
    const report = await analyze([run('a', [llm(), llm()]), run('b', [llm()])], options);
    expect(report.totals).toMatchObject({
      llmCalls: 3,
      costUsd: 0,
      unknownModels: [],
      unmeasuredLlmCalls: 3,
    });
    expect(report.traces.map((t) => t.unmeasuredLlmCalls)).toEqual([2, 1]);
    expect(formatCost(report.totals)).toBe('unknown');
    expect(formatWaste(report)).toBe('unknown');
    expect(report.notes).toContain(
      "none of the 3 LLM calls carries token counts or a recorded cost: the run's cost and waste are unknown, not $0; record usage (input and output tokens) or a cost per call to price them",
    );
    const text = renderText(report);
    expect(text).toContain('Cost: unknown over 3 LLM calls');
    expect(text).toContain(
      'Unpriced calls: 3 LLM calls carry no token counts and no recorded cost: their cost is unknown, not $0',
    );
    expect(text).toMatch(/^Waste: unknown/m);
    expect(text).not.toMatch(/^(Cost|Waste): \$0\.00/m);
    const md = renderMarkdown(report);
    expect(md).toContain('cost **unknown** · waste **unknown**');
    expect(md).toContain('Unpriced calls: 3 LLM calls carry no token counts');
  });

  it('count only the calls without counts when others have them, and leave measured runs alone', async () => {
    const mixed = await analyze(
      [
        run('a', [llm({ inputTokens: 1000, outputTokens: 200 }), llm()]),
        run('b', [llm({ inputTokens: 500, outputTokens: 50 })]),
      ],
      options,
    );
    expect(mixed.totals.unmeasuredLlmCalls).toBe(1);
    expect(mixed.traces.map((t) => t.unmeasuredLlmCalls)).toEqual([1, undefined]);
    expect(formatCost(mixed.totals)).toMatch(/^\$[\d.]+ \(\+ 1 unpriced call\)$/);
    expect(formatWaste(mixed)).toBe('$0.00');
    expect(mixed.notes.join('\n')).toContain(
      '1 LLM call of 3 carry no token counts and no recorded cost: their cost is unknown and counted as $0 in the totals',
    );
    const measured = await analyze([run('a', [llm({ inputTokens: 10, outputTokens: 2 })])], options);
    expect(measured.totals).not.toHaveProperty('unmeasuredLlmCalls');
    expect(measured.traces[0]).not.toHaveProperty('unmeasuredLlmCalls');
  });

  it('is not said of a call whose recorded cost is 0', async () => {
    const report = await analyze([run('a', [{ ...llm(), costUsd: 0 }])], options);
    expect(report.totals).not.toHaveProperty('unmeasuredLlmCalls');
    expect(formatCost(report.totals)).toBe('$0.00');
  });
});

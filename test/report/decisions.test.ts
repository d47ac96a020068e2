/**
 * Where each signal was decided: every report counts the signals each tier decided (confirmed or
 * dismissed) and those left for review, from the signals themselves (their `tier` field), so a tier
 * added to the escalation is counted without the account knowing how it decides.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { createReportAccumulator } from '../../src/report/build.js';
import { mdText } from '../../src/redact/markdown.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import { renderText } from '../../src/report/renderText.js';
import type { TraceSummary } from '../../src/report/schema.js';
import { emptyStats } from '../../src/trace/load.js';
import type { TraceInput } from '../../src/trace/schema.js';
import { signal as makeSignal } from '../helpers/signalBuilder.js';

const summary = (id: string): TraceSummary => ({
  id,
  file: 'runs.jsonl',
  format: 'native',
  agentId: 'bot',
  status: 'ok',
  steps: 1,
  llmCalls: 0,
  toolCalls: 0,
  tokens: { input: 0, output: 0 },
  costUsd: 0,
  unpricedLlmCalls: 0,
  signals: 0,
});

describe('decisions', () => {
  it('counts each signal once: at its tier, confirmed or dismissed, or under review', () => {
    const acc = createReportAccumulator();
    acc.addSummary(
      summary('a'),
      [
        makeSignal({ traceId: 'a', tier: 1, confidence: 0.9 }),
        makeSignal({ traceId: 'a', tier: 2, confidence: 0.8 }),
        makeSignal({ traceId: 'a', tier: 4, confidence: 0.95 }),
        makeSignal({ traceId: 'a', tier: 1, confidence: 0.5 }),
        // Neither a decision nor a case for review: shadow and suppressed signals are not counted.
        makeSignal({ traceId: 'a', tier: 1, confidence: 0.9, shadow: true }),
        makeSignal({ traceId: 'a', tier: 1, confidence: 0.9, suppressedBy: 'RETRY_LOOP' }),
      ],
      undefined,
      [
        makeSignal({ traceId: 'a', tier: 2, confidence: 0.2 }),
        makeSignal({ traceId: 'a', tier: 3, confidence: 0.1 }),
        makeSignal({ traceId: 'a', tier: 3, confidence: 0.3 }),
      ],
    );
    acc.addSummary(summary('b'), [makeSignal({ traceId: 'b', tier: 3, confidence: 0.7 })]);
    const report = acc.finish({
      stats: emptyStats(),
      unknownModels: new Map(),
      failOn: ['critical', 'high'],
    });
    expect(report.decisions).toEqual({
      signals: 8,
      byTier: { '1': 1, '2': 2, '3': 3, '4': 1 },
      dismissed: { '1': 0, '2': 1, '3': 2, '4': 0 },
      review: 1,
    });
    const line =
      'Decided: 8 signals — tier 1 rules 1 (13 %), tier 2 state deltas 2 (25 %, 1 dismissed), ' +
      'tier 3 embeddings 3 (38 %, 2 dismissed), tier 4 judges 1 (13 %), tier 5 review 1 (13 %); ' +
      'detection cost $0.00 per trace';
    expect(renderText(report, { color: false })).toContain(line);
    expect(renderMarkdown(report)).toContain(mdText(line, 1000).source);
  });

  it('in analyze, counts what tier 3 dismissed, which never reaches the signal list', async () => {
    // A tool called three times: with the same query it is a loop, with unrelated ones iteration.
    const trace = (id: string, queries: string[]): TraceInput => ({
      id,
      output: 'done',
      steps: queries.map((q) => ({
        type: 'tool' as const,
        name: 'search',
        args: { query: q },
        status: 'ok' as const,
      })),
    });
    const report = await analyze(
      [
        trace('same', ['weather in Paris today', 'weather in Paris today?', 'Weather in Paris today']),
        trace('different', ['weather in Paris today', 'flights to Tokyo', 'banana bread recipe']),
        trace('opaque', ['R1', 'R2', 'R3']),
      ],
      { config: parseConfig('', 'tracejury.yml'), baselines: false },
    );
    const d = report.decisions!;
    const listed = report.signals.filter((s) => s.status === 'finding');
    const kept = (tier: number) => listed.filter((s) => s.tier === tier).length;
    expect(d.byTier['3']).toBeGreaterThan(0);
    expect(d.dismissed['3']).toBeGreaterThan(0);
    // What is listed plus what was dismissed is what each tier decided.
    for (const tier of ['1', '2', '3', '4'] as const)
      expect(d.byTier[tier] - d.dismissed[tier], `tier ${tier}`).toBe(kept(Number(tier)));
    expect(d.review).toBe(report.review.filter((r) => !r.shadow).length);
    expect(d.signals).toBe(d.byTier['1'] + d.byTier['2'] + d.byTier['3'] + d.byTier['4'] + d.review);
    expect(report.signals.some((s) => s.traceId === 'different' && s.detector === 'TOOL_LOOP')).toBe(false);
  });
});

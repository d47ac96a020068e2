/**
 * Structural loops' waste through a whole run: the report's totals, the per-detector waste the
 * text, markdown and JSON reports show, and escalation deciding whether a gray-zone loop's dollars
 * count.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import { renderText } from '../../src/report/renderText.js';
import { ReportSchema } from '../../src/report/schema.js';
import { llm, makeTrace, tool } from '../helpers/traceBuilder.js';

// Four identical lookups, each issued by its own LLM call: $0.02 + $0.03 + $0.04 for the repeats.
const fourLookups = makeTrace(
  [
    llm({ costUsd: 0.01 }),
    tool('lookup_order', { args: { order_id: 'A1' }, result: { status: 'shipped' }, issuedBy: 1 }),
    llm({ costUsd: 0.02 }),
    tool('lookup_order', { args: { order_id: 'A1' }, result: { status: 'shipped' }, issuedBy: 3 }),
    llm({ costUsd: 0.03 }),
    tool('lookup_order', { args: { order_id: 'A1' }, result: { status: 'shipped' }, issuedBy: 5 }),
    llm({ costUsd: 0.04 }),
    tool('lookup_order', { args: { order_id: 'A1' }, result: { status: 'shipped' }, issuedBy: 7 }),
    llm({ costUsd: 0.05, output: 'Order A1 has shipped.' }),
  ],
  { id: 'lookups', output: 'Order A1 has shipped.' },
);

// Polling a job whose status stopped changing (tier 2 confirms the gray-zone loop), each poll
// issued by its own LLM call.
const poll = (state: string, issuedBy: number) =>
  tool('job_status', { args: { id: 'J1' }, result: { state }, issuedBy });
const pollingForever = makeTrace(
  [
    llm({ costUsd: 0.01 }),
    poll('queued', 1),
    llm({ costUsd: 0.02 }),
    poll('running', 3),
    llm({ costUsd: 0.03 }),
    poll('stalled', 5),
    llm({ costUsd: 0.04 }),
    poll('stalled', 7),
    llm({ costUsd: 0.05 }),
    poll('running', 9),
  ],
  { id: 'polling', status: 'error' },
);

describe('structural loops in the report', () => {
  it('report.waste counts the loop, and the text, markdown and JSON reports show it per detector', async () => {
    const report = await analyze([fourLookups], { baselines: false, escalate: false });
    expect(report.waste.byDetector.TOOL_LOOP).toEqual({ usd: 0.09, tokens: 360, signals: 1 });
    expect(report.waste.totalUsd).toBeCloseTo(0.09, 10);
    const json = ReportSchema.parse(JSON.parse(JSON.stringify(report)));
    expect(json.signals.find((s) => s.detector === 'TOOL_LOOP')?.wasteUsd).toBe(0.09);
    expect(renderText(report, { color: false })).toMatch(/TOOL_LOOP\s+high\s+1 in 1 trace {2}\$0\.09/);
    expect(renderMarkdown(report)).toContain('| `TOOL_LOOP` | high | 1 | 1 | $0.0900 |');
  });

  it('a gray-zone loop tier 2 confirms counts its waste; left for review, it does not', async () => {
    const confirmed = await analyze([pollingForever], { baselines: false, escalate: false });
    const loop = confirmed.signals.find((s) => s.detector === 'TOOL_LOOP')!;
    expect(loop.status).toBe('finding');
    expect(loop.tier).toBe(2);
    // The polls after the first: those issued by steps 3, 5, 7 and 9.
    expect(loop.evidence?.wastedSteps).toEqual([3, 5, 7, 9]);
    expect(confirmed.waste.byDetector.TOOL_LOOP?.usd).toBeCloseTo(0.14, 10);

    const undecided = await analyze([pollingForever], {
      baselines: false,
      escalate: false,
      config: parseConfig('tiers:\n  stateDeltas: []\n'),
    });
    const review = undecided.signals.find((s) => s.detector === 'TOOL_LOOP')!;
    expect(review.status).toBe('review');
    expect(review.wasteUsd).toBeCloseTo(0.14, 10);
    expect(undecided.waste).toEqual({ totalUsd: 0, totalTokens: 0, byDetector: {} });
  });
});

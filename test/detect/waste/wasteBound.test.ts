/**
 * Whole-pipeline guard: with every built-in detector on (budgets included), the waste a trace is
 * charged never exceeds what it cost, and only the detectors that charge waste (a priority: the
 * cost-waste detectors and the structural loops) charge it. A budget overrun used to be charged as
 * waste on top of a retry loop's redundant calls ($2.50 on a $2.00 trace).
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/config.js';
import { detectors } from '../../../src/detect/registry.js';
import { createDetectorRunner } from '../../../src/detect/runner.js';
import { createPricer } from '../../../src/pricing/pricer.js';
import { wasteTotals } from '../../../src/report/wasteTotals.js';
import type { Trace } from '../../../src/trace/schema.js';
import { at, calls, fromRecords, repeat, type CrashlensRecord } from './fixtures.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';

const pricer = createPricer();
const runner = createDetectorRunner({ config: defaultConfig(), pricer });

function totals(trace: Trace) {
  const signals = runner.run({ trace, source: { file: 'guard.jsonl', format: 'records' } });
  const cost = trace.steps.reduce(
    (sum, s) =>
      s.type === 'llm' ? sum + (s.costUsd ?? pricer.quote(s.model, s.usage, s.provider)?.usd ?? 0) : sum,
    0,
  );
  return { signals, waste: wasteTotals(signals), cost };
}

const blog = (traceId: string, sec: number, model: string, cost: number): CrashlensRecord => ({
  traceId,
  startTime: at(sec),
  input: { model, prompt: 'Write a blog post' },
  usage: { prompt_tokens: 50, completion_tokens: 200 },
  cost,
});

const traces: [string, Trace][] = [
  [
    // /tmp/qa2/t6.jsonl: the reference's retry example at $0.50 a call, over the $1 budget.
    'gpt-4 retry loop over the cost budget',
    calls(repeat(4, 1, { model: 'gpt-4', prompt: 'Validate user login', in: 20, out: 5, cost: 0.5 })),
  ],
  [
    'gpt-4 retry loop on a 19-token prompt (retry loop and overkill both counted)',
    calls(repeat(4, 1, { model: 'gpt-4', prompt: 'Validate user login', in: 19, out: 5, cost: 0.5 })),
  ],
  [
    'fallback storm, expensive model first',
    fromRecords([
      blog('s', 0, 'gpt-4', 0.015),
      blog('s', 5, 'gpt-3.5-turbo', 0.0005),
      blog('s', 10, 'claude-3-sonnet', 0.009),
    ])[0]!,
  ],
  [
    'fallback storm of expensive models only, over a budget',
    fromRecords([
      blog('e', 0, 'gpt-4', 0.6),
      blog('e', 5, 'claude-3-opus', 0.7),
      blog('e', 10, 'gpt-4', 0.6),
    ])[0]!,
  ],
  [
    'gpt-4 retry loop whose every call repeats a tool call (retry loop and tool loop on the same calls)',
    makeTrace(
      [0, 1, 2, 3].flatMap((k) => [
        llm({
          model: 'gpt-4',
          input: 'Validate user login',
          startedAt: at(k),
          costUsd: 0.5,
          output: { role: 'assistant', toolCalls: [{ name: 'check_user', arguments: { user: 'u1' } }] },
        }),
        tool('check_user', { args: { user: 'u1' }, result: 'ok', issuedBy: 2 * k + 1 }),
      ]),
    ),
  ],
  [
    'overkill with a recorded cost and no usage',
    calls([{ model: 'gpt-4', prompt: 'What is 2+2?', in: 0, out: 0, cost: 0.00039 }]),
  ],
];

describe('waste never exceeds what the trace cost', () => {
  it.each(traces)('%s', (_name, trace) => {
    const { signals, waste, cost } = totals(trace);
    expect(waste.totalUsd).toBeGreaterThan(0);
    expect(waste.totalUsd).toBeLessThanOrEqual(cost + 1e-12);
    const wasteIds = new Set(detectors.filter((d) => d.meta.priority !== undefined).map((d) => d.meta.id));
    expect(Object.keys(waste.byDetector).every((id) => wasteIds.has(id))).toBe(true);
    expect(signals.filter((s) => !wasteIds.has(s.detector) && s.wasteUsd !== undefined)).toEqual([]);
  });

  it('the over-budget retry loop: COST_BUDGET fires, only the 3 redundant calls are waste ($1.50 of $2.00)', () => {
    const { signals, waste } = totals(traces[0]![1]);
    expect(signals.map((s) => s.detector)).toContain('COST_BUDGET');
    expect(waste.totalUsd).toBeCloseTo(1.5, 10);
    expect(Object.keys(waste.byDetector)).toEqual(['RETRY_LOOP']);
  });
});

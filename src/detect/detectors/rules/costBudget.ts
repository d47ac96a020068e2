/**
 * COST_BUDGET: the trace cost more than its budget (tier 1 threshold check). Cost is each LLM
 * step's `costUsd` (recorded, or filled from the price table by the loader); a step without one is
 * priced here with the pricer, and steps that cannot be priced are counted in the evidence.
 *
 * The overage is evidence (`overageUsd`) and part of the message, never `wasteUsd`: going over a
 * budget says nothing about which dollars bought nothing, and the waste detectors already charge
 * the calls that did (a retry loop's redundant calls, say), so charging the overage too would count
 * the same dollars twice and can make the waste total exceed what the trace cost.
 */
import { z } from 'zod';
import { defineDetector } from '../../detector.js';
import { plural } from '../../../util/thousands.js';
import { overBudgetConfidence } from './tokenBudget.js';

const usd = (n: number) => `$${n < 0.01 ? n.toPrecision(2) : n.toFixed(2)}`;

export const costBudget = defineDetector({
  meta: {
    id: 'COST_BUDGET',
    configKey: 'cost_budget',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'budget',
    description: 'The trace cost more (USD, all LLM calls) than its budget',
    fix: "cap the run's spend: fewer LLM calls, a cheaper model for easy steps, or raise max_cost_usd on purpose",
    rule: "The run's LLM calls cost more than `max_cost_usd` (recorded cost, else tokens × price; calls that cannot be priced are counted in the evidence). The overage is reported, not charged as waste.",
    config: z.object({
      max_cost_usd: z.number().positive().default(1.0).describe('USD allowed for all LLM calls of one trace'),
    }),
  },
  detect(trace, ctx) {
    const budget = ctx.config.max_cost_usd;
    let total = 0;
    let crossedAt: number | undefined;
    let unpriced = 0;
    let calls = 0;
    const costly: { step: number; usd: number }[] = [];
    trace.steps.forEach((s, i) => {
      if (s.type !== 'llm') return;
      calls++;
      const cost = s.costUsd ?? ctx.pricer.quote(s.model, s.usage, s.provider)?.usd;
      if (cost === undefined) {
        unpriced++;
        return;
      }
      total += cost;
      costly.push({ step: i + 1, usd: cost });
      if (crossedAt === undefined && total > budget) crossedAt = i + 1;
    });
    if (crossedAt === undefined) return [];
    const overage = total - budget;
    const top = costly
      .sort((a, b) => b.usd - a.usd)
      .slice(0, 3)
      .map((c) => ({ step: c.step, usd: Math.round(c.usd * 1e6) / 1e6 }));
    return [
      {
        steps: [crossedAt],
        confidence: overBudgetConfidence(total, budget),
        message:
          `The trace cost ${usd(total)} across ${plural(calls, 'LLM call')}, ${usd(overage)} over the budget of ${usd(budget)}; ` +
          `the budget ran out at step ${crossedAt}. Most expensive: ${top.map((t) => `step ${t.step} (${usd(t.usd)})`).join(', ')}.`,
        evidence: {
          costUsd: Math.round(total * 1e6) / 1e6,
          budgetUsd: budget,
          overageUsd: Math.round(overage * 1e6) / 1e6,
          llmCalls: calls,
          unpricedCalls: unpriced,
          crossedAtStep: crossedAt,
          mostExpensive: top,
        },
      },
    ];
  },
});

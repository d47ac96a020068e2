/**
 * The prior, for multi-agent runs where no evidence points anywhere: the first turn of the busiest
 * agent that is neither a router nor an executor. Labelled runs bear it out more often than any
 * single agent would (the agent that did most of the work is most often the one that went wrong,
 * and most often from its first turn), but it is structure, not evidence: low confidence, and in
 * the gray zone the tribunal may choose among it and the first turns of the other agents. Turns
 * that only hand the task over (the question, relayed) are not counted. A run with one agent gets
 * no prior: naming its first step would be a guess.
 */
import type { AttributionRule, CandidateDraft } from '../rule.js';

/** Other agents' first turns offered beside it to the tribunal. */
const MAX_OTHERS = 3;

export const busiestAgent: AttributionRule = {
  meta: {
    id: 'BUSIEST_AGENT_PRIOR',
    description:
      'A low-confidence prior for multi-agent runs no rule explains: the first turn of the busiest agent that is neither a router nor an executor',
    messages: {
      busiest:
        'its first turn; {{agent}} took most of the turns ({{turns}} of {{total}}) and no evidence pointed elsewhere',
      firstTurn: 'the first turn of {{agent}}, which took {{turns}} of {{total}} turns',
    },
  },
  find(ctx) {
    const named = new Set(ctx.agents.filter((a): a is string => a !== undefined));
    if (named.size < 2) return [];
    const turns = new Map<string, { count: number; first: number }>();
    let total = 0;
    ctx.trace.steps.forEach((s, i) => {
      const agent = ctx.agents[i];
      if (i < ctx.handover || agent === undefined || s.type === 'tool' || s.type === 'retrieval') return;
      if (ctx.roleOf(agent) !== 'worker') return;
      total++;
      const t = turns.get(agent);
      if (t) t.count++;
      else turns.set(agent, { count: 1, first: i + 1 });
    });
    // The busiest first; equally busy, the one that spoke first.
    const ranked = [...turns.entries()].sort((a, b) => b[1].count - a[1].count || a[1].first - b[1].first);
    return ranked.slice(0, 1 + MAX_OTHERS).map(([agent, t], rank): CandidateDraft => ({
      step: t.first,
      messageId: rank === 0 ? 'busiest' : 'firstTurn',
      data: { agent, turns: t.count, total },
      confidence: rank === 0 ? 0.3 : 0.2,
      strength: 'prior',
    }));
  },
};

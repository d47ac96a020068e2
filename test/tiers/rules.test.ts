/**
 * The escalation rules of escalateGrayZone against a scripted tribunal session: the gray-zone
 * boundaries (0.35 and 0.65 inclusive), no-downgrade, routing by failure mode and the run budget.
 */
import { describe, expect, it } from 'vitest';
import type { Signal } from '../../src/detect/signal.js';
import type { JudgeSpec } from '../../src/judge/providers.js';
import type { EvaluateOptions, TribunalSession, TribunalStats } from '../../src/judge/tribunal.js';
import type { Verdict } from '../../src/judge/verdict.js';
import { escalateGrayZone } from '../../src/tiers/escalate.js';
import { DEFAULT_ROUTE_BY_FAILURE_MODE, judgesFor, routeOf, routedJudges } from '../../src/tiers/routing.js';
import { detectors as builtInDetectors, findDetector } from '../../src/detect/registry.js';
import { makeTrace, tool } from '../helpers/traceBuilder.js';

const trace = makeTrace([tool('search', { args: { q: 'a' } })], { id: 't1', output: 'done' });

function signal(confidence: number, detector = 'TOOL_LOOP'): Signal {
  return {
    detector,
    traceId: 't1',
    severity: 'high',
    confidence,
    tier: 1,
    shadow: false,
    steps: [1],
    message: `suspected at ${confidence}`,
  };
}

/** A session that answers every case with `score` and charges `usdPerCase`. */
function scripted(score: number, usdPerCase = 0) {
  const calls: EvaluateOptions[] = [];
  let usd = 0;
  const session: TribunalSession = {
    async evaluate(o) {
      calls.push(o);
      usd += usdPerCase;
      const verdict: Verdict = {
        traceId: o.traceId ?? 'x',
        passed: score >= 0.8,
        indeterminate: false,
        score,
        confidence: 0.9,
        reason: 'scripted',
        modelsUsed: (o.judges ?? []).map((j) => j.model),
        judges: [],
        costUsd: usdPerCase,
        latencyMs: 1,
        disagreement: 0,
        highDisagreement: false,
        stages: [0, 2],
        findings: [],
      };
      return verdict;
    },
    stats: () => ({ judgeUsd: usd }) as TribunalStats,
    flush: async () => {},
  };
  return { session, calls };
}

const base = {
  noDowngrade: new Set<string>(['PROMPT_INJECTION_SIGNAL']),
  describe: (id: string) => findDetector(id)?.meta,
};

describe('gray-zone boundaries', () => {
  it.each([
    [0.3499, false],
    [0.35, true],
    [0.3501, true],
    [0.5, true],
    [0.6499, true],
    [0.65, true],
    [0.6501, false],
  ])('confidence %f escalates: %s', async (confidence, escalates) => {
    const { session, calls } = scripted(0.1);
    const out = await escalateGrayZone(trace, [signal(confidence)], { ...base, session });
    expect(calls).toHaveLength(escalates ? 1 : 0);
    expect(out.verdicts).toHaveLength(escalates ? 1 : 0);
    expect(out.signals[0]!.tier).toBe(escalates ? 4 : 1);
    expect(out.signals[0]!.confidence).toBeCloseTo(escalates ? 0.9 : confidence, 10);
  });

  it('shadow and suppressed signals are never escalated', async () => {
    const { session, calls } = scripted(0.1);
    await escalateGrayZone(
      trace,
      [
        { ...signal(0.5), shadow: true },
        { ...signal(0.5), suppressedBy: 'RETRY_STORM' },
      ],
      { ...base, session },
    );
    expect(calls).toHaveLength(0);
  });
});

describe('no-downgrade', () => {
  it('a judge may lower an ordinary detector, but only raise a no-downgrade one', async () => {
    const { session } = scripted(0.9); // healthy: judged failure confidence 0.1
    const out = await escalateGrayZone(
      trace,
      [signal(0.5, 'TOOL_LOOP'), signal(0.5, 'PROMPT_INJECTION_SIGNAL')],
      { ...base, session },
    );
    expect(out.signals[0]!.confidence).toBeCloseTo(0.1, 10);
    expect(out.signals[1]!.confidence).toBe(0.5);
    expect(out.signals[1]!.evidence).toMatchObject({ detectorConfidence: 0.5 });

    const raised = await escalateGrayZone(trace, [signal(0.5, 'PROMPT_INJECTION_SIGNAL')], {
      ...base,
      session: scripted(0.2).session,
    });
    expect(raised.signals[0]!.confidence).toBeCloseTo(0.8, 10);
  });
});

describe('routing by failure mode', () => {
  const judge = (model: string): JudgeSpec => ({ provider: 'openai', model }) as JudgeSpec;
  const routes = {
    low: { judges: [judge('gpt-4o-mini')] },
    high: { judges: [judge('gpt-4.1'), judge('claude-sonnet-4-6')] },
  };

  it('maps every built-in failure mode, and unknown ones to default', () => {
    const modes = new Set(builtInDetectors.map((d) => d.meta.failureMode));
    for (const m of modes) expect(DEFAULT_ROUTE_BY_FAILURE_MODE[m], m).toBeDefined();
    expect(routeOf('cost')).toBe('low');
    expect(routeOf('loop')).toBe('default');
    expect(routeOf('injection')).toBe('high');
    expect(routeOf('state_corruption')).toBe('high');
    expect(routeOf('something-new')).toBe('default');
    expect(routeOf(undefined)).toBe('default');
    expect(routeOf('cost', { cost: 'high' })).toBe('high');
  });

  it('picks the route judges, and none (the session judges) for a route not configured', () => {
    expect(judgesFor('cost', { routes })).toEqual({ route: 'low', judges: routes.low.judges });
    expect(judgesFor('injection', { routes })).toEqual({ route: 'high', judges: routes.high.judges });
    expect(judgesFor('loop', { routes })).toEqual({ route: 'default' });
    expect(judgesFor('loop', { routes, failureModes: { loop: 'low' } }).judges).toEqual(routes.low.judges);
    expect(routedJudges({ routes }).map((j) => j.model)).toEqual([
      'gpt-4o-mini',
      'gpt-4.1',
      'claude-sonnet-4-6',
    ]);
  });

  it('sends each case to its route and records the route in the evidence', async () => {
    const { session, calls } = scripted(0.1);
    const out = await escalateGrayZone(
      trace,
      [signal(0.5, 'PROMPT_INJECTION_SIGNAL'), signal(0.5, 'TOOL_LOOP')],
      { ...base, session, route: (m) => judgesFor(m, { routes }) },
    );
    expect(calls[0]!.judges).toEqual(routes.high.judges);
    expect(calls[1]!.judges).toBeUndefined();
    expect(out.signals.map((s) => s.evidence?.route)).toEqual(['high', 'default']);
  });
});

describe('run budget', () => {
  it('stops escalating once spend reaches the budget; the rest stay in the gray zone', async () => {
    const { session, calls } = scripted(0.1, 0.03);
    const out = await escalateGrayZone(trace, [signal(0.5), signal(0.55), signal(0.6), signal(0.4)], {
      ...base,
      session,
      budgetUsd: 0.06,
    });
    expect(calls).toHaveLength(2);
    expect(out.overBudget).toBe(2);
    expect(out.signals.slice(2).map((s) => [s.confidence, s.tier, s.evidence?.escalation])).toEqual([
      [0.6, 1, 'run budget of $0.06 reached'],
      [0.4, 1, 'run budget of $0.06 reached'],
    ]);
  });
});

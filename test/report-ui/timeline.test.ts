import { describe, expect, it } from 'vitest';
import { layoutTimeline, MIN_BAR, tickLabel, timeTicks } from '../../report-ui/src/model/timeline.js';
import { llm, makeTrace, message, retrieval, state, tool } from '../helpers/traceBuilder.js';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();

describe('layoutTimeline', () => {
  it('places each step by its recorded start and duration on an axis that spans the steps', () => {
    const trace = makeTrace(
      [
        llm({ startedAt: at(0), durationMs: 1000 }),
        tool('search', { startedAt: at(1), durationMs: 3000 }),
        llm({ startedAt: at(4), durationMs: 1000 }),
      ],
      // The run idles long after its last step: the axis still spans the steps only.
      { startedAt: at(0), endedAt: at(90) },
    );
    const t = layoutTimeline(trace, []);
    expect(t.mode).toBe('time');
    expect(t.spanMs).toBe(5000);
    expect(t.rows.map((r) => [r.left, r.width].map((x) => Math.round(x * 1000) / 1000))).toEqual([
      [0, 0.2],
      [0.2, 0.6],
      [0.8, 0.2],
    ]);
    expect(t.rows.map((r) => r.startMs)).toEqual([0, 1000, 4000]);
    expect(t.ticks.map((x) => x.label)).toEqual(['0', '1 s', '2 s', '3 s', '4 s', '5 s']);
  });

  it('puts a step without a start right after the step before it', () => {
    const trace = makeTrace([
      llm({ startedAt: at(0), durationMs: 2000 }),
      tool('lookup', { durationMs: 1000 }),
      llm({ startedAt: at(3), durationMs: 1000 }),
    ]);
    const rows = layoutTimeline(trace, []).rows;
    expect(rows[1]!.left).toBeCloseTo(0.5);
    expect(rows[1]!.startMs).toBeUndefined();
  });

  it('lays steps out in order when no time is recorded, a batch of parallel calls side by side', () => {
    const trace = makeTrace([
      llm(),
      tool('get_weather', { issuedBy: 1 }),
      tool('get_time', { issuedBy: 1 }),
      tool('get_news', { issuedBy: 1 }),
      llm(),
    ]);
    const t = layoutTimeline(trace, []);
    expect(t.mode).toBe('order');
    expect(t.ticks).toEqual([]);
    const [first, a, b, c, last] = t.rows;
    // The three calls one response issued share one slot: they ran side by side, in no order.
    expect(new Set([a!.left, b!.left, c!.left]).size).toBe(1);
    expect(a!.left).toBeGreaterThan(first!.left);
    expect(last!.left).toBeGreaterThan(a!.left);
    expect(a!.batch).toEqual({ issuedBy: 1, size: 3, position: 0 });
    expect(c!.batch).toEqual({ issuedBy: 1, size: 3, position: 2 });
    expect(first!.batch).toBeUndefined();
    expect([a, b, c].map((r) => r!.indent)).toEqual([1, 1, 1]);
  });

  it('does not call a lone call with issuedBy a batch', () => {
    const t = layoutTimeline(makeTrace([llm(), tool('one', { issuedBy: 1 })]), []);
    expect(t.rows[1]!.batch).toBeUndefined();
    expect(t.rows[1]!.indent).toBe(1);
  });

  it('tells the step kinds apart and marks failed LLM and tool steps', () => {
    const trace = makeTrace([
      llm({ model: 'gpt-4o', error: 'rate limited' }),
      tool('charge', { status: 'error', error: '402' }),
      tool('refund', { status: 'unknown' }),
      retrieval({ query: 'refund policy', results: [{ content: 'x' }] }),
      state({ step: 2 }, 'planner'),
      message('planner', 'go', 'executor'),
    ]);
    const rows = layoutTimeline(trace, []).rows;
    expect(rows.map((r) => r.kind)).toEqual(['llm', 'tool', 'tool', 'retrieval', 'state', 'message']);
    expect(rows.map((r) => r.failed)).toEqual([true, true, false, false, false, false]);
    expect(rows.map((r) => r.label)).toEqual([
      'gpt-4o',
      'charge',
      'refund',
      'retrieve “refund policy”',
      'state of planner',
      'planner → executor',
    ]);
    expect(rows[2]!.detail).toBe('no result recorded');
    expect(rows[3]!.detail).toBe('1 result');
  });

  it('names an LLM step by its span and model, the model once', () => {
    const rows = layoutTimeline(
      makeTrace([
        llm({ model: 'gpt-4.1-mini', name: 'chat gpt-4.1-mini' }),
        llm({ model: 'gpt-4.1-mini-2025-04-14', name: 'chat gpt-4.1-mini' }),
        llm({ model: 'claude-haiku-4-5', name: 'ai.generateText.doGenerate' }),
        llm({ model: 'gpt-4o', name: 'gpt-4o' }),
      ]),
      [],
    ).rows;
    expect(rows.map((r) => r.label)).toEqual([
      'chat gpt-4.1-mini',
      'chat gpt-4.1-mini · gpt-4.1-mini-2025-04-14',
      'ai.generateText.doGenerate · claude-haiku-4-5',
      'gpt-4o',
    ]);
  });

  it('draws each finding on the steps it names, and highlights the detector the address names', () => {
    const trace = makeTrace([llm(), tool('a'), tool('a'), tool('a')]);
    const markers = [
      {
        detector: 'RETRY_STORM',
        severity: 'high' as const,
        steps: [2, 3, 4],
        message: 'm',
        status: 'finding',
      },
      { detector: 'CONTEXT_BLOAT', severity: 'medium' as const, steps: [1], message: 'm', status: 'finding' },
    ];
    const rows = layoutTimeline(trace, markers, 'RETRY_STORM').rows;
    expect(rows.map((r) => r.markers.map((m) => m.detector))).toEqual([
      ['CONTEXT_BLOAT'],
      ['RETRY_STORM'],
      ['RETRY_STORM'],
      ['RETRY_STORM'],
    ]);
    expect(rows.map((r) => r.highlighted)).toEqual([false, true, true, true]);
  });

  it('keeps a 0 ms step visible and every bar inside the axis', () => {
    const trace = makeTrace([
      llm({ startedAt: at(0), durationMs: 0 }),
      llm({ startedAt: at(10), durationMs: 0 }),
    ]);
    for (const r of layoutTimeline(trace, []).rows) {
      expect(r.width).toBeGreaterThanOrEqual(MIN_BAR);
      expect(r.left + r.width).toBeLessThanOrEqual(1 + 1e-9);
    }
  });
});

describe('timeTicks', () => {
  it('picks a round step giving at most six marks', () => {
    expect(timeTicks(90_000).map((t) => t.label)).toEqual(['0', '20 s', '40 s', '1 min', '1 min 20 s']);
    expect(timeTicks(450).map((t) => t.label)).toEqual(['0', '100 ms', '200 ms', '300 ms', '400 ms']);
    expect(timeTicks(0)).toEqual([]);
    expect(tickLabel(120_000)).toBe('2 min');
  });
});

describe('layoutTimeline: agents and the root cause', () => {
  const team = makeTrace([
    message('user', 'Book the 9am flight.'),
    llm({ agent: 'Planner' }),
    tool('search_flights', { issuedBy: 2, status: 'error', error: 'Error: unavailable' }),
    llm({ agent: 'Booker' }),
    tool('book_flight', { agent: 'Booker' }),
    tool('book_flight', { agent: 'Booker' }),
  ]);
  const cause = {
    step: 3,
    agent: 'Planner',
    rule: 'UNRECOVERED_FAILURE',
    confidence: 0.7,
    evidence: 'its search_flights call failed',
    effect: { step: 4, evidence: 'it acted on it' },
    symptoms: [{ detector: 'TOOL_LOOP', step: 5 }],
    decidedBy: 'rules' as const,
  };

  it('one lane per agent, a tool call in its issuer’s; none for a run of one agent', () => {
    const t = layoutTimeline(team, []);
    expect(t.agents).toEqual(['Planner', 'Booker']);
    expect(t.rows.map((r) => r.agent)).toEqual([
      undefined,
      { name: 'Planner', lane: 0 },
      { name: 'Planner', lane: 0 },
      { name: 'Booker', lane: 1 },
      { name: 'Booker', lane: 1 },
      { name: 'Booker', lane: 1 },
    ]);
    const solo = layoutTimeline(makeTrace([llm({ agent: 'Solo' }), tool('x', { issuedBy: 1 })]), []);
    expect(solo.agents).toEqual([]);
    expect(solo.rows.map((r) => r.agent)).toEqual([undefined, undefined]);
  });

  it('marks the root cause and its effect, and the findings that follow from it', () => {
    const rows = layoutTimeline(team, [], undefined, cause).rows;
    expect(rows[2]!.cause).toEqual({
      role: 'root',
      text: 'root cause (UNRECOVERED_FAILURE, 0.70): its search_flights call failed',
    });
    expect(rows[3]!.cause).toEqual({ role: 'effect', text: 'caused by step 3: it acted on it' });
    expect(rows.map((r) => r.followsFrom)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      3,
      undefined,
    ]);
    // Unattributed: nothing marked.
    const none = layoutTimeline(team, [], undefined, { unattributed: 'no rule found a cause' }).rows;
    expect(none.every((r) => r.cause === undefined && r.followsFrom === undefined)).toBe(true);
  });
});

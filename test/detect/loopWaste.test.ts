/**
 * Structural loops carry waste: the LLM calls that produced their redundant steps, priced by the
 * runner, each call charged once across every detector (src/detect/wasteCharges.ts,
 * suppression.ts, wastePriority.ts).
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { createDetectorRunner } from '../../src/detect/runner.js';
import type { Signal } from '../../src/detect/signal.js';
import { chargedSteps } from '../../src/detect/suppression.js';
import { createPricer } from '../../src/pricing/pricer.js';
import { wasteTotals } from '../../src/report/wasteTotals.js';
import type { Trace } from '../../src/trace/schema.js';
import { llm, makeTrace, message, state, tool } from '../helpers/traceBuilder.js';

const pricer = createPricer();
const runner = createDetectorRunner({ config: defaultConfig(), pricer });
const run = (trace: Trace) => runner.run({ trace, source: { file: 'loops.jsonl', format: 'native' } });
const of = (signals: Signal[], id: string) => signals.filter((s) => s.detector === id);
const only = (signals: Signal[], id: string) => {
  const found = of(signals, id);
  expect(found, `${id} in ${signals.map((s) => s.detector).join(', ')}`).toHaveLength(1);
  return found[0]!;
};

/** An LLM call at a recorded cost: the dollars a test can read. */
const priced = (costUsd: number, fields: Parameters<typeof llm>[0] = {}) => llm({ costUsd, ...fields });
const lookup = (issuedBy?: number) =>
  tool('lookup_order', {
    args: { order_id: 'A1' },
    result: { status: 'shipped' },
    ...(issuedBy !== undefined ? { issuedBy } : {}),
  });

/**
 * The LLM calls the trace's findings charge, each with the detectors charging it: a call charged
 * twice would show two.
 */
function chargesByCall(signals: Signal[]): Map<number, string[]> {
  const by = new Map<number, string[]>();
  for (const s of signals) {
    if (s.wasteUsd === undefined || s.suppressedBy || s.confidence <= 0.65) continue;
    for (const n of chargedSteps(s)) by.set(n, [...(by.get(n) ?? []), s.detector]);
  }
  return by;
}

/** What the distinct charged calls cost (recorded costs). */
function distinctCost(trace: Trace, calls: Iterable<number>): number {
  let usd = 0;
  for (const n of calls) {
    const s = trace.steps[n - 1]!;
    if (s.type === 'llm') usd += s.costUsd ?? 0;
  }
  return usd;
}

/** The run's charges hold the rule: no call twice, and the totals are the distinct calls' cost. */
function expectChargedOnce(trace: Trace, signals: Signal[]): void {
  const by = chargesByCall(signals);
  for (const [n, ids] of by) expect(ids, `step ${n}`).toHaveLength(1);
  const totals = wasteTotals(signals);
  expect(totals.totalUsd).toBeCloseTo(distinctCost(trace, by.keys()), 10);
  const perDetector = Object.values(totals.byDetector).reduce((a, d) => a + d.usd, 0);
  expect(perDetector).toBeCloseTo(totals.totalUsd, 10);
}

// Four identical lookups, each issued by its own LLM call: the three repeats cost what the three
// calls that issued them cost ($0.02 + $0.03 + $0.04); the first lookup and the final answer are needed.
const fourLookups = (linked: boolean) =>
  makeTrace([
    priced(0.01),
    lookup(linked ? 1 : undefined),
    priced(0.02),
    lookup(linked ? 3 : undefined),
    priced(0.03),
    lookup(linked ? 5 : undefined),
    priced(0.04),
    lookup(linked ? 7 : undefined),
    priced(0.05, { output: 'Your order A1 has shipped.' }),
  ]);

describe('TOOL_LOOP waste: the LLM calls that issued the repeats', () => {
  it('charges the calls that issued the three repeated lookups, not the first one nor the answer', () => {
    const trace = fourLookups(true);
    const signals = run(trace);
    const loop = only(signals, 'TOOL_LOOP');
    expect(loop.confidence).toBeGreaterThan(0.65);
    expect(loop.evidence?.wastedSteps).toEqual([3, 5, 7]);
    expect(loop.wasteUsd).toBeCloseTo(0.09, 10);
    expect(loop.wasteTokens).toBe(3 * 120);
    expect(loop.evidence?.costSources).toEqual({ recorded: 3 });
    expect(wasteTotals(signals).byDetector.TOOL_LOOP).toEqual({
      usd: loop.wasteUsd,
      tokens: 360,
      signals: 1,
    });
  });

  it('without issuedBy, a tool call is charged to the nearest LLM call before it', () => {
    const signals = run(fourLookups(false));
    expect(only(signals, 'TOOL_LOOP').evidence?.wastedSteps).toEqual([3, 5, 7]);
    expect(only(signals, 'TOOL_LOOP').wasteUsd).toBeCloseTo(0.09, 10);
  });

  it('prices a call without a recorded cost from its tokens at its own tier (the pricer)', () => {
    const gpt4o = { model: 'gpt-4o', usage: { inputTokens: 1000, outputTokens: 100 } };
    const trace = makeTrace([
      llm(gpt4o),
      lookup(1),
      llm(gpt4o),
      lookup(3),
      llm(gpt4o),
      lookup(5),
      llm({ ...gpt4o, output: 'shipped' }),
    ]);
    const loop = only(run(trace), 'TOOL_LOOP');
    const one = pricer.quote('gpt-4o', { inputTokens: 1000, outputTokens: 100 })!.usd;
    expect(one).toBeGreaterThan(0);
    expect(loop.evidence?.wastedSteps).toEqual([3, 5]);
    expect(loop.wasteUsd).toBeCloseTo(2 * one, 12);
    expect(loop.evidence?.costSources).toEqual({ priced: 2 });
  });

  it('a call that issued a repeat beside a needed call in one batch is not charged, and is listed', () => {
    const trace = makeTrace([
      priced(0.01),
      lookup(1),
      priced(0.02),
      lookup(3),
      priced(0.03),
      lookup(5),
      // One response asks for the same lookup again and for something new.
      priced(0.04),
      lookup(7),
      tool('get_user', { args: { user_id: 'U1' }, result: { name: 'Ann' }, issuedBy: 7 }),
      priced(0.05, { output: 'done' }),
    ]);
    const loop = only(run(trace), 'TOOL_LOOP');
    expect(loop.evidence?.wastedSteps).toEqual([3, 5]);
    expect(loop.evidence?.partlyRedundantCalls).toEqual([7]);
    expect(loop.wasteUsd).toBeCloseTo(0.05, 10);
  });

  it('a batch whose calls are all repeats is charged once', () => {
    const trace = makeTrace([
      priced(0.01),
      lookup(1),
      priced(0.02),
      lookup(3),
      lookup(3),
      lookup(3),
      priced(0.05, { output: 'done' }),
    ]);
    const loop = only(run(trace), 'TOOL_LOOP');
    expect(loop.evidence?.wastedSteps).toEqual([3]);
    expect(loop.wasteUsd).toBeCloseTo(0.02, 10);
  });

  it('a tool-only trace (no LLM call issued anything) has a loop and no dollar figure', () => {
    const loop = only(run(makeTrace([lookup(), lookup(), lookup(), lookup()])), 'TOOL_LOOP');
    expect(loop.evidence?.wastedSteps).toEqual([]);
    expect(loop.wasteUsd).toBeUndefined();
  });

  it('a gray-zone loop carries its would-be waste, which the totals do not count', () => {
    // Polling: the same request, a different answer each time (tier 2 decides).
    const poll = (n: number, issuedBy: number) =>
      tool('track_shipment', { args: { id: 'S1' }, result: { status: `in transit, ${n} km`, n }, issuedBy });
    const trace = makeTrace([
      priced(0.01),
      poll(10, 1),
      priced(0.02),
      poll(20, 3),
      priced(0.03),
      poll(30, 5),
      priced(0.04, { output: 'on its way' }),
    ]);
    const signals = run(trace);
    const loop = only(signals, 'TOOL_LOOP');
    expect(loop.confidence).toBeLessThanOrEqual(0.65);
    expect(loop.wasteUsd).toBeCloseTo(0.05, 10);
    expect(wasteTotals(signals)).toEqual({ totalUsd: 0, totalTokens: 0, byDetector: {} });
  });
});

describe('the other structural loops', () => {
  it('RETRY_STORM charges the calls that issued the retries after the first failure', () => {
    const fail = (issuedBy: number, args: unknown) =>
      tool('charge_card', { args, status: 'error', error: 'card declined: insufficient funds', issuedBy });
    // Different cards each time: a storm of retries, not a loop of one request.
    const trace = makeTrace([
      priced(0.01),
      fail(1, { card: '1111' }),
      priced(0.02),
      fail(3, { card: '2222' }),
      priced(0.03),
      fail(5, { card: '3333' }),
      priced(0.04, { output: 'Payment failed.' }),
    ]);
    const signals = run(trace);
    const storm = only(signals, 'RETRY_STORM');
    expect(storm.evidence?.wastedSteps).toEqual([3, 5]);
    expect(storm.wasteUsd).toBeCloseTo(0.05, 10);
    expectChargedOnce(trace, signals);
  });

  it('LLM_TRUNCATION_LOOP charges the truncated calls asked again, not the last call', () => {
    const cut = (costUsd: number) => priced(costUsd, { finishReason: 'length', output: 'The answer is' });
    const trace = makeTrace([cut(0.01), cut(0.02), cut(0.03)]);
    const truncation = only(run(trace), 'LLM_TRUNCATION_LOOP');
    expect(truncation.evidence?.wastedSteps).toEqual([1, 2]);
    expect(truncation.wasteUsd).toBeCloseTo(0.03, 10);
  });

  it('LLM_TRUNCATION_LOOP does not charge a cut-off answer that still issued a tool call', () => {
    const trace = makeTrace([
      priced(0.01, { finishReason: 'length' }),
      tool('search', { args: { q: 'x' }, result: ['a'], issuedBy: 1 }),
      priced(0.02, { finishReason: 'length' }),
      priced(0.03, { output: 'done' }),
    ]);
    const truncation = only(run(trace), 'LLM_TRUNCATION_LOOP');
    expect(truncation.evidence?.wastedSteps).toEqual([3]);
    expect(truncation.wasteUsd).toBeCloseTo(0.02, 10);
  });

  it('HARNESS_REJECTION charges the rejected turns', () => {
    const reject = 'Error: invalid action format. Please always provide EXACTLY ONE action in a code block.';
    const trace = makeTrace([
      priced(0.01, { output: 'I think we should look at the file.' }),
      message('user', reject),
      priced(0.02, { output: 'Let me look at the file.' }),
      message('user', reject),
      priced(0.03, { output: 'Looking at the file now.' }),
      message('user', reject),
      priced(0.04, { output: 'ok' }),
    ]);
    const rejection = only(run(trace), 'HARNESS_REJECTION');
    expect(rejection.evidence?.wastedSteps).toEqual([1, 3, 5]);
    expect(rejection.wasteUsd).toBeCloseTo(0.06, 10);
  });

  it('TOOL_THRASHING charges the calls that issued the alternation where it made no progress', () => {
    const a = (issuedBy: number) => tool('read_file', { args: { path: 'a.py' }, result: 'x = 1', issuedBy });
    const b = (issuedBy: number) => tool('run_tests', { args: {}, result: '1 failed', issuedBy });
    const trace = makeTrace([
      priced(0.01),
      a(1),
      priced(0.02),
      b(3),
      priced(0.03),
      a(5),
      priced(0.04),
      b(7),
      priced(0.05),
      a(9),
      priced(0.06),
      b(11),
      priced(0.07, { output: 'stuck' }),
    ]);
    const signals = run(trace);
    const thrashing = only(signals, 'TOOL_THRASHING');
    // TOOL_LOOP sees the same round made again (priority 7, before TOOL_THRASHING's 8).
    const loop = of(signals, 'TOOL_LOOP');
    const charged = [...(loop[0] ? chargedSteps(loop[0]) : []), ...chargedSteps(thrashing)].sort(
      (x, y) => x - y,
    );
    expect(charged).toEqual([5, 7, 9, 11]);
    expectChargedOnce(trace, signals);
  });

  it('STATE_HASH_LOOP charges the calls that led back to a state, for one agent', () => {
    const trace = makeTrace([
      priced(0.01),
      state({ cart: [], page: 'search' }),
      priced(0.02),
      state({ cart: ['x'], page: 'search' }),
      priced(0.03),
      state({ cart: [], page: 'search' }),
      priced(0.04),
      state({ cart: ['x'], page: 'search' }),
      priced(0.05),
      state({ cart: [], page: 'search' }),
    ]);
    // The cart is emptied at steps 2, 6 and 10: the work since each previous visit led back to it.
    const loop = only(run(trace), 'STATE_HASH_LOOP');
    expect(loop.evidence?.wastedSteps).toEqual([3, 5, 7, 9]);
    expect(loop.wasteUsd).toBeCloseTo(0.14, 10);
  });

  it('STATE_HASH_LOOP charges nothing when several agents keep snapshots (no call names its agent)', () => {
    const steps = [];
    for (let i = 0; i < 3; i++)
      steps.push(
        priced(0.01),
        state({ cart: [] }, 'a'),
        state({ cart: ['x'] }, 'a'),
        state({ n: i % 2 }, 'b'),
      );
    const loop = only(run(makeTrace(steps)), 'STATE_HASH_LOOP');
    expect(loop.evidence?.wastedSteps).toEqual([]);
    expect(loop.wasteUsd).toBeUndefined();
  });

  it('CASCADING_TOOL_FAILURE carries no waste: different calls of different tools, none a repeat', () => {
    const trace = makeTrace([
      priced(0.01),
      tool('fetch_user', { status: 'error', error: 'timeout', issuedBy: 1 }),
      priced(0.02),
      tool('fetch_orders', { status: 'error', error: 'db down', issuedBy: 3 }),
      priced(0.03),
      tool('send_mail', { status: 'error', error: 'smtp refused', issuedBy: 5 }),
    ]);
    const cascade = only(run(trace), 'CASCADING_TOOL_FAILURE');
    expect(cascade.wasteUsd).toBeUndefined();
  });
});

describe('a call two detectors see is charged once', () => {
  // The same failing request four times: RETRY_STORM (priority 6) and TOOL_LOOP (7) both see the
  // three retries; the storm charges them, the loop stays a finding and says who charges its calls.
  const failingTwice = () =>
    makeTrace([
      priced(0.01),
      tool('refund', { args: { order: 'A1' }, status: 'error', error: '500 internal error', issuedBy: 1 }),
      priced(0.02),
      tool('refund', { args: { order: 'A1' }, status: 'error', error: '500 internal error', issuedBy: 3 }),
      priced(0.03),
      tool('refund', { args: { order: 'A1' }, status: 'error', error: '500 internal error', issuedBy: 5 }),
      priced(0.04),
      tool('refund', { args: { order: 'A1' }, status: 'error', error: '500 internal error', issuedBy: 7 }),
      priced(0.05, { output: 'Sorry, the refund failed.' }),
    ]);

  it('RETRY_STORM and TOOL_LOOP on the same failing calls: the storm charges, the loop is still a finding', () => {
    const trace = failingTwice();
    const signals = run(trace);
    const storm = only(signals, 'RETRY_STORM');
    const loop = only(signals, 'TOOL_LOOP');
    expect(storm.evidence?.wastedSteps).toEqual([3, 5, 7]);
    expect(storm.wasteUsd).toBeCloseTo(0.09, 10);
    expect(loop.suppressedBy).toBeUndefined();
    expect(loop.confidence).toBeGreaterThan(0.65);
    expect(loop.evidence?.wastedSteps).toEqual([]);
    expect(loop.evidence?.wasteChargedBy).toEqual({ RETRY_STORM: [3, 5, 7] });
    expect(loop.wasteUsd).toBeUndefined();
    expect(wasteTotals(signals)).toMatchObject({
      totalUsd: 0.09,
      byDetector: { RETRY_STORM: { usd: 0.09 } },
    });
    expectChargedOnce(trace, signals);
  });

  it('RETRY_LOOP and TOOL_LOOP on the same calls: the retry loop charges, the tool loop leaves them', () => {
    // A flat log: the same prompt sent four times, each reply asking for the same lookup.
    const ask = (costUsd: number, t: number) =>
      priced(costUsd, {
        model: 'gpt-4o',
        input: 'Where is order A1?',
        startedAt: `2025-07-25T10:00:0${t}Z`,
        output: { role: 'assistant', toolCalls: [{ name: 'lookup_order', arguments: { order_id: 'A1' } }] },
      });
    const trace = makeTrace([
      ask(0.01, 0),
      lookup(1),
      ask(0.02, 1),
      lookup(3),
      ask(0.03, 2),
      lookup(5),
      ask(0.04, 3),
      lookup(7),
    ]);
    const signals = run(trace);
    const retry = only(signals, 'RETRY_LOOP');
    const loop = only(signals, 'TOOL_LOOP');
    expect(retry.evidence?.wastedSteps).toEqual([3, 5, 7]);
    expect(loop.evidence?.wasteChargedBy).toEqual({ RETRY_LOOP: [3, 5, 7] });
    expect(loop.wasteUsd).toBeUndefined();
    expectChargedOnce(trace, signals);
  });

  it('OVERKILL_MODEL is not charged on a call a loop charges in full', () => {
    // Short prompts on gpt-4: overkill, but calls 3, 5 and 7 were not needed at all.
    const ask = (t: number) =>
      llm({
        model: 'gpt-4',
        input: `Order A1? (${t})`,
        usage: { inputTokens: 12, outputTokens: 8 },
        output: { role: 'assistant', toolCalls: [{ name: 'lookup_order', arguments: { order_id: 'A1' } }] },
      });
    const trace = makeTrace([ask(1), lookup(1), ask(2), lookup(3), ask(3), lookup(5), ask(4), lookup(7)]);
    const signals = run(trace);
    const loop = only(signals, 'TOOL_LOOP');
    expect(chargedSteps(loop)).toEqual([3, 5, 7]);
    const overkill = of(signals, 'OVERKILL_MODEL');
    expect(overkill.map((s) => [s.steps[0], s.suppressedBy ?? null])).toEqual([
      [1, null],
      [3, 'TOOL_LOOP'],
      [5, 'TOOL_LOOP'],
      [7, 'TOOL_LOOP'],
    ]);
    const by = chargesByCall(signals);
    for (const ids of by.values()) expect(ids).toHaveLength(1);
  });

  it('settleWaste charges again for the confidences escalation decided', () => {
    const trace = failingTwice();
    const detected = run(trace);
    // Had the storm been a gray-zone case, it would reserve nothing: the loop charges the calls.
    const asGray = detected.map((s) => (s.detector === 'RETRY_STORM' ? { ...s, confidence: 0.5 } : s));
    const settled = runner.settleWaste(trace, asGray);
    expect(only(settled, 'TOOL_LOOP').evidence?.wastedSteps).toEqual([3, 5, 7]);
    expect(only(settled, 'TOOL_LOOP').wasteUsd).toBeCloseTo(0.09, 10);
    expect(only(settled, 'TOOL_LOOP').evidence?.wasteChargedBy).toBeUndefined();
    // The storm keeps its would-be waste, uncounted while it is for review.
    expect(only(settled, 'RETRY_STORM').wasteUsd).toBeCloseTo(0.09, 10);
    expect(wasteTotals(settled).byDetector).toEqual({ TOOL_LOOP: { usd: 0.09, tokens: 360, signals: 1 } });
    // A later tier confirms the storm: the calls go back to it, never to both.
    const stormConfidence = only(detected, 'RETRY_STORM').confidence;
    const confirmed = runner.settleWaste(
      trace,
      settled.map((s) => (s.detector === 'RETRY_STORM' ? { ...s, confidence: stormConfidence } : s)),
    );
    expect(confirmed).toEqual(detected);
    // Order and other signals are kept.
    expect(settled.map((s) => s.detector)).toEqual(detected.map((s) => s.detector));
  });
});

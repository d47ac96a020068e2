import { describe, expect, it } from 'vitest';
import { sessionSettings } from '../../src/session/config.js';
import { loopFromRepeat } from '../../src/session/fromDetectorSignals.js';
import { createSessionAccumulator, MAX_PER_TRACE_LISTED } from '../../src/session/sessions.js';
import { sketch } from '../../src/session/similarity.js';
import type { SessionFacts } from '../../src/session/traceFacts.js';

const defaults = sessionSettings();
const loop = { detector: 'TOOL_LOOP', confidence: 0.9, shadow: false };
const facts = (tokens: string[], extra: Partial<SessionFacts> = {}): SessionFacts => ({
  toolSteps: 0,
  failedToolSteps: 0,
  fingerprint: sketch(tokens),
  ...extra,
});

const scoresBySession = (entries: ReturnType<ReturnType<typeof createSessionAccumulator>['finish']>) => {
  const out: Record<string, Record<string, number>> = {};
  for (const e of entries) (out[e.sessionId] ??= {})[e.metric] = e.score;
  return out;
};

describe('session grouping', () => {
  it('groups traces by sessionId, whatever their agent, in the order sessions were first seen', () => {
    const acc = createSessionAccumulator();
    acc.add({ traceId: 'a1', agentId: 'a', sessionId: 's2', signals: [] });
    acc.add({ traceId: 'a2', agentId: 'a', sessionId: 's1', signals: [loop] });
    acc.add({ traceId: 'b1', agentId: 'b', sessionId: 's2', signals: [] });
    const out = acc.finish(defaults);
    expect(out.map((e) => `${e.sessionId}:${e.metric}`)).toEqual([
      's2:agent_reliability',
      's2:agent_consistency',
      's1:agent_reliability',
      's1:agent_consistency',
    ]);
    expect(out[0]!.metadata).toMatchObject({
      total_traces_in_session: 2,
      grouped_by: 'sessionId',
      agent_ids: ['a', 'b'],
      threshold: 0.5,
    });
  });

  it('scores no session for runs that name none, and counts them', () => {
    const acc = createSessionAccumulator();
    for (const [id, agent] of [
      ['x1', 'x'],
      ['y1', 'y'],
      ['x2', 'x'],
    ] as const)
      acc.add({ traceId: id, agentId: agent, signals: [loop] });
    expect(acc.finish(defaults)).toEqual([]);
    expect(acc.coverage()).toEqual({ sessions: 0, grouped: 0, withoutSession: 3 });
  });

  it("never joins a run that names no session to a session, not even its agent's only one", () => {
    const acc = createSessionAccumulator();
    acc.add({ traceId: 'o1', agentId: 'one', sessionId: 'only', signals: [] });
    acc.add({ traceId: 'o2', agentId: 'one', signals: [loop] });
    acc.add({ traceId: 'm1', agentId: 'many', sessionId: 'm-a', signals: [] });
    acc.add({ traceId: 'm2', agentId: 'many', sessionId: 'm-b', signals: [] });
    acc.add({ traceId: 'm3', agentId: 'many', signals: [] });
    const out = acc.finish(defaults).filter((e) => e.metric === 'agent_reliability');
    const by = Object.fromEntries(out.map((e) => [e.sessionId, e.metadata]));
    expect(Object.keys(by)).toEqual(['only', 'm-a', 'm-b']);
    expect(by.only).toMatchObject({ total_traces_in_session: 1, grouped_by: 'sessionId' });
    expect(out.every((e) => e.passed)).toBe(true);
    expect(acc.coverage()).toEqual({ sessions: 3, grouped: 3, withoutSession: 2 });
  });
});

describe('session scores from per-trace signals', () => {
  it('a session with a looping trace scores lower on both metrics', () => {
    const acc = createSessionAccumulator();
    for (let i = 0; i < 4; i++) acc.add({ traceId: `c${i}`, agentId: 'a', sessionId: 'clean', signals: [] });
    for (let i = 0; i < 4; i++)
      acc.add({ traceId: `l${i}`, agentId: 'a', sessionId: 'looping', signals: i === 2 ? [loop] : [] });
    const s = scoresBySession(acc.finish(defaults));
    expect(s.clean).toEqual({ agent_reliability: 1, agent_consistency: 1 });
    expect(s.looping!.agent_reliability).toBeLessThan(0.5);
    expect(s.looping!.agent_consistency).toBeLessThan(1);
  });

  it('a near-identical repeat of one of the previous 3 runs of a session lowers loop_detection', () => {
    const calls = ['t:search({"q":"refund"})#1', 't:search({"q":"refund"})#2', 'o:refund policy says'];
    const acc = createSessionAccumulator();
    const first = acc.add({ traceId: 'r1', agentId: 'a', sessionId: 's', signals: [], facts: facts(calls) });
    const other = acc.add({
      traceId: 'r2',
      agentId: 'a',
      sessionId: 's',
      signals: [],
      facts: facts(['t:lookup({"id":1})#1', 'o:order shipped today', 'o:shipped today thanks']),
    });
    const repeat = acc.add({ traceId: 'r3', agentId: 'a', sessionId: 's', signals: [], facts: facts(calls) });
    expect(first.signals.loop_detection).toBe(1);
    expect(other.signals.loop_detection).toBe(1);
    expect(repeat.signals.loop_detection).toBe(0);
    // Three other runs later, r1 is no longer among the previous 3.
    for (const i of [4, 5, 6])
      acc.add({
        traceId: `r${i}`,
        agentId: 'a',
        sessionId: 's',
        signals: [],
        facts: facts([`t:x${i}`, 'a', 'b']),
      });
    const late = acc.add({ traceId: 'r7', agentId: 'a', sessionId: 's', signals: [], facts: facts(calls) });
    expect(late.signals.loop_detection).toBe(1);
    expect(loopFromRepeat(0.75)).toBeCloseTo(0.5, 10);
  });

  it('does not count repeats among runs that name no session (independent runs of one task)', () => {
    const calls = ['t:search({"q":"refund"})#1', 'o:a b c', 'o:b c d'];
    const acc = createSessionAccumulator();
    acc.add({ traceId: 'u1', agentId: 'a', signals: [], facts: facts(calls) });
    expect(
      acc.add({ traceId: 'u2', agentId: 'a', signals: [], facts: facts(calls) }).signals.loop_detection,
    ).toBe(1);
  });

  it('too small a fingerprint is not compared', () => {
    const acc = createSessionAccumulator();
    acc.add({ traceId: 'a', agentId: 'a', sessionId: 's', signals: [], facts: facts(['o:yes']) });
    expect(
      acc.add({ traceId: 'b', agentId: 'a', sessionId: 's', signals: [], facts: facts(['o:yes']) }).signals
        .loop_detection,
    ).toBe(1);
  });

  it("a decided verdict's confidence wins over the detectors'; an indeterminate one does not", () => {
    const acc = createSessionAccumulator();
    const judged = acc.add({
      traceId: 't',
      agentId: 'a',
      signals: [loop],
      verdicts: [
        { traceId: 't', score: 0.9, confidence: 1, indeterminate: false },
        { traceId: 't', score: 0.5, confidence: 0.8, indeterminate: false },
        { traceId: 'other', score: 0, confidence: 1, indeterminate: false },
      ],
    });
    // The lowest-scoring decided verdict on this trace: confidence 0.8 × 0.5, coherence 0.5.
    expect(judged.signals.confidence).toBeCloseTo(0.4, 10);
    expect(judged.signals.coherence).toBe(0.5);
    expect(judged.signals.loop_detection).toBeCloseTo(0.1, 10);
    const unsure = acc.add({
      traceId: 'u',
      agentId: 'a',
      signals: [loop],
      verdicts: [{ traceId: 'u', score: 0, confidence: 0, indeterminate: true }],
    });
    expect(unsure.signals.confidence).toBeCloseTo(0.1, 10);
  });

  it('measured facts lower tool_correctness and coherence', () => {
    const acc = createSessionAccumulator();
    const t = acc.add({
      traceId: 't',
      agentId: 'a',
      signals: [],
      facts: facts([], { toolSteps: 4, failedToolSteps: 1, ioSimilarity: 0 }),
    });
    expect(t.signals.tool_correctness).toBeCloseTo(0.75, 10);
    expect(t.signals.coherence).toBeCloseTo(0.7, 10);
    expect(t.signals.confidence).toBe(1);
  });

  it('applies the thresholds and weights of the settings', () => {
    const acc = createSessionAccumulator();
    acc.add({
      traceId: 't',
      agentId: 'a',
      sessionId: 's',
      signals: [],
      facts: facts([], { toolSteps: 2, failedToolSteps: 1 }),
    });
    const strict = acc.finish({ ...defaults, reliabilityThreshold: 0.7 });
    expect(strict[0]).toMatchObject({
      metric: 'agent_reliability',
      passed: false,
      metadata: { threshold: 0.7 },
    });
    expect(strict[0]!.score).toBeCloseTo(0.6, 10); // tool risk 0.5 × weight 0.8
    const light = acc.finish({ ...defaults, weights: { ...defaults.weights, tool_correctness: 0.2 } });
    expect(light[0]!.score).toBeCloseTo(0.9, 10);
  });

  it('lists at most the worst traces of a large session in its metadata, and counts the rest', () => {
    const acc = createSessionAccumulator();
    for (let i = 0; i < 100; i++)
      acc.add({ traceId: `t${i}`, agentId: 'a', sessionId: 's', signals: i === 50 ? [loop] : [] });
    const [reliability] = acc.finish(defaults);
    const perTrace = reliability!.metadata.per_trace_signals as Record<string, unknown>;
    expect(Object.keys(perTrace)).toHaveLength(MAX_PER_TRACE_LISTED);
    expect(Object.keys(perTrace)[0]).toBe('t50');
    expect(reliability!.metadata.per_trace_signals_omitted).toBe(100 - MAX_PER_TRACE_LISTED);
  });
});

/**
 * Tier 2 (state deltas): the gray-zone signals of the loop detectors decided from what each
 * repeated call returned against the ones before it and what the run did next — fixtures on either
 * side of each rule, the stage's bookkeeping (tier, evidence, cleared signals), and tier 2 inside
 * analyze() and the trace analyser with its `tiers.stateDeltas` switch.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { toolLoop } from '../../src/detect/detectors/structural/toolLoop.js';
import type { Detector } from '../../src/detect/detector.js';
import type { Signal } from '../../src/detect/signal.js';
import type { Trace } from '../../src/trace/schema.js';
import { callDeltas } from '../../src/tiers/stateDeltas/deltas.js';
import { repeatedCalls } from '../../src/tiers/stateDeltas/repeatedCalls.js';
import { applyStateDeltas, STATE_DELTA_RULES } from '../../src/tiers/stateDeltas.js';
import { createTraceAnalyser } from '../../src/traceAnalyser.js';
import { llm, makeTrace, tool } from '../helpers/traceBuilder.js';
import { runDetector } from '../detect/tester.js';

const bash = (command: string, result: string, status: 'ok' | 'error' = 'ok') =>
  tool(
    'bash',
    status === 'ok' ? { args: { command }, result } : { args: { command }, status, error: result },
  );

/** The detector's one signal on the trace, as the runner would hand it on (tier 1, not shadow). */
function signalOf(detector: Detector, trace: Trace): Signal {
  const drafts = runDetector(detector, trace);
  expect(drafts).toHaveLength(1);
  return {
    ...drafts[0]!,
    detector: detector.meta.id,
    traceId: trace.id,
    severity: 'high',
    tier: 1,
    shadow: false,
  };
}

const all = new Set(Object.keys(STATE_DELTA_RULES));

// Polling a job whose status moves on each time, then an answer that uses it.
const pollingThatMovesOn = makeTrace(
  [
    tool('job_status', { args: { id: 'J1' }, result: { state: 'queued' } }),
    tool('job_status', { args: { id: 'J1' }, result: { state: 'running', step: 'extract' } }),
    tool('job_status', { args: { id: 'J1' }, result: { state: 'done', rows: 1204 } }),
    llm({ output: 'The export finished with 1204 rows.' }),
  ],
  { id: 'moves-on', output: 'The export finished with 1204 rows.' },
);

/** A gray-zone signal of `detector` over `steps`, as tier 1 would hand it on. */
const graySignal = (detector: string, trace: Trace, steps: number[]): Signal => ({
  detector,
  traceId: trace.id,
  severity: 'high',
  confidence: 0.5,
  tier: 1,
  shadow: false,
  steps,
  message: 'gray',
});

// Polling a job whose status moves at first, then only flaps between states already seen.
const pollingForever = makeTrace(
  [
    tool('job_status', { args: { id: 'J1' }, result: { state: 'queued' } }),
    tool('job_status', { args: { id: 'J1' }, result: { state: 'running' } }),
    tool('job_status', { args: { id: 'J1' }, result: { state: 'stalled' } }),
    tool('job_status', { args: { id: 'J1' }, result: { state: 'stalled' } }),
    tool('job_status', { args: { id: 'J1' }, result: { state: 'running' } }),
  ],
  { id: 'polling', status: 'error' },
);

// Searching two ways on two dates: nothing, nothing, nothing, then a flight — and the run goes on.
const searchedUntilFound = makeTrace(
  [
    tool('search_direct_flight', { args: { date: '05-15' }, result: [] }),
    tool('search_onestop_flight', { args: { date: '05-15' }, result: [] }),
    tool('search_direct_flight', { args: { date: '05-17' }, result: [] }),
    tool('search_onestop_flight', { args: { date: '05-17' }, result: [{ flight: 'HAT082' }] }),
    tool('book_reservation', { args: { flight: 'HAT082' }, result: { reservation: 'R9' } }),
  ],
  { id: 'found', output: 'Booked HAT082.' },
);

// Searching three ways and finding nothing, then giving up on the docs.
const foundNothing = makeTrace(
  [
    tool('search_docs', { args: { q: 'cancel subscription' }, result: [] }),
    tool('search_docs', { args: { q: 'cancel plan' }, result: [] }),
    tool('search_docs', { args: { q: 'unsubscribe' }, result: [] }),
    tool('cancel_subscription', { args: {}, status: 'error', error: '403 Forbidden' }),
  ],
  { id: 'nothing', status: 'error' },
);

describe('tier 2: repeated calls', () => {
  it('clears a loop whose every repeat brought new information, the run then moving on', () => {
    const s = signalOf(toolLoop, pollingThatMovesOn);
    expect(s.confidence).toBe(0.5);
    const d = repeatedCalls(pollingThatMovesOn, s);
    expect(d).toMatchObject({ decision: 'no failure', confidence: 0.15 });
    expect(d.reason).toMatch(/kept bringing new information .* then the run moved on to final answer/);
    expect(d.facts).toMatchObject({ new: 2, stale: 0, courseChanged: true, usesNewInformation: true });
  });

  it('takes a different result as new information even when every word of it was seen before', () => {
    // A test re-run after each edit: its report rearranges names it printed before, and says
    // something else each time. Not "the last two calls brought nothing new".
    const trace = makeTrace([
      bash('python -m pytest -q', 'FAILED test_a PASSED test_b PASSED test_c', 'error'),
      bash("sed -i 's/a/b/' x.py", ''),
      bash('python -m pytest -q', 'PASSED test_a FAILED test_b PASSED test_c', 'error'),
      bash("sed -i 's/c/d/' x.py", ''),
      bash('python -m pytest -q', 'PASSED test_a PASSED test_b FAILED test_c', 'error'),
      bash("sed -i 's/e/f/' x.py", ''),
      bash('python -m pytest -q', 'PASSED test_a PASSED test_b PASSED test_c'),
    ]);
    const d = repeatedCalls(trace, graySignal('TOOL_LOOP', trace, [1, 3, 5, 7]));
    expect(d.decision).not.toBe('failure');
    expect(d.facts).toMatchObject({ new: 3, stale: 0 });
  });

  it('says nothing new came back when the outcome stayed the same after a change was made', () => {
    const trace = makeTrace(
      [
        bash('python -m pytest -q', 'FAILED test_a: AssertionError', 'error'),
        bash("sed -i 's/a/b/' x.py", ''),
        bash('python -m pytest -q', 'FAILED test_a: AssertionError', 'error'),
        bash("sed -i 's/c/d/' x.py", ''),
        bash('python -m pytest -q', 'FAILED test_a: AssertionError', 'error'),
      ],
      { status: 'error' },
    );
    const d = repeatedCalls(trace, graySignal('TOOL_LOOP', trace, [1, 3, 5]));
    expect(d).toMatchObject({ decision: 'failure' });
    expect(d.facts).toMatchObject({ new: 0, stale: 2 });
  });

  it('confirms polling whose answers stopped changing', () => {
    const s = signalOf(toolLoop, pollingForever);
    expect(s.confidence).toBe(0.5);
    const d = repeatedCalls(pollingForever, s);
    expect(d.decision).toBe('failure');
    expect(d.reason).toMatch(/the answers stopped changing/);
    expect(d.confidence).toBeGreaterThan(0.65);
  });

  it('clears searching until something is found, then used', () => {
    const d = repeatedCalls(
      searchedUntilFound,
      graySignal('TOOL_THRASHING', searchedUntilFound, [1, 2, 3, 4]),
    );
    expect(d).toMatchObject({ decision: 'no failure', confidence: 0.25 });
    expect(d.facts).toMatchObject({ new: 1, stale: 0, misses: 1, next: 'tool book_reservation' });
  });

  it('confirms searches of which none brought anything back', () => {
    const s = signalOf(toolLoop, foundNothing);
    const d = repeatedCalls(foundNothing, s);
    // Three calls back to back, then the run moved on (to a failing call): 0.80 + 0.05.
    expect(d).toMatchObject({ decision: 'failure', confidence: 0.85 });
    expect(d.reason).toMatch(
      /^none of the 2 later calls brought anything new \(2 found nothing or failed\), fired back to back$/,
    );
  });

  it('leaves the case undecided when the results were not recorded', () => {
    const trace = makeTrace([
      tool('lookup', { args: { id: 'R1' } }),
      tool('lookup', { args: { id: 'R2' } }),
      tool('lookup', { args: { id: 'R3' } }),
    ]);
    const d = repeatedCalls(trace, signalOf(toolLoop, trace));
    expect(d).toMatchObject({
      decision: 'undecided',
      reason: '3 results not recorded: what the calls returned is unknown',
    });
  });

  it('leaves new and stale answers mixed, with no stale ending, to the next tier', () => {
    const trace = makeTrace([
      tool('get_page', { args: { url: 'a' }, result: 'alpha' }),
      tool('get_page', { args: { url: 'a' }, result: 'alpha' }),
      tool('get_page', { args: { url: 'a' }, result: 'beta gamma' }),
    ]);
    const d = repeatedCalls(trace, signalOf(toolLoop, trace));
    expect(d.decision).toBe('undecided');
    expect(d.reason).toMatch(/^new and stale answers mixed \(1 new, 1 stale\)/);
  });
});

describe('tier 2: what each call returned against the ones before', () => {
  it('counts fields that appeared as new information, and three vanishing at once as none', () => {
    const trace = makeTrace([
      tool('status', { args: {}, result: { state: 'running' } }),
      tool('status', { args: {}, result: { state: 'running', eta: 5 } }),
      tool('status', { args: {}, result: { a: 1, b: 2, c: 3, d: 4 } }),
      tool('status', { args: {}, result: { d: 4, e: 'x' } }),
    ]);
    const deltas = callDeltas(trace, [1, 2, 3, 4]);
    expect(deltas.map((d) => d.kind)).toEqual(['new', 'new', 'new', 'same']);
    expect(deltas[1]).toMatchObject({ fieldsAppeared: ['eta'], fieldsVanished: [] });
    expect(deltas[3]).toMatchObject({ fieldsVanished: ['a', 'b', 'c'] });
  });
});

describe('applyStateDeltas', () => {
  it('resolves a confirmed case at tier 2 and says why in the evidence', () => {
    const s = signalOf(toolLoop, pollingForever);
    const { signals, cleared, checked, resolved } = applyStateDeltas(pollingForever, [s], all);
    expect({ checked, resolved, cleared }).toEqual({ checked: 1, resolved: 1, cleared: [] });
    expect(signals[0]).toMatchObject({ tier: 2, evidence: { detectorConfidence: 0.5 } });
    expect(signals[0]!.confidence).toBeGreaterThan(0.65);
    expect(signals[0]!.evidence).toMatchObject({
      escalation: expect.stringMatching(
        /^tier 2 \(state deltas\) confirmed the failure: the answers stopped changing/,
      ),
      tier2: {
        decision: 'failure',
        reason: expect.any(String),
        facts: expect.objectContaining({ calls: 5 }),
      },
    });
  });

  it('takes a case it clears out of the signals and hands it back as cleared', () => {
    const s = signalOf(toolLoop, pollingThatMovesOn);
    const { signals, cleared } = applyStateDeltas(pollingThatMovesOn, [s], all);
    expect(signals).toEqual([]);
    expect(cleared).toHaveLength(1);
    expect(cleared[0]).toMatchObject({ tier: 2, confidence: 0.15 });
    expect(cleared[0]!.evidence?.escalation).toMatch(/^tier 2 \(state deltas\) found no failure: /);
  });

  it('notes an undecided case in the evidence and leaves it in the gray zone at its tier', () => {
    const trace = makeTrace([
      tool('lookup', { args: { id: 1 } }),
      tool('lookup', { args: { id: 2 } }),
      tool('lookup', { args: { id: 3 } }),
    ]);
    const s = signalOf(toolLoop, trace);
    const [out] = applyStateDeltas(trace, [s], all).signals;
    expect(out).toMatchObject({ tier: 1, confidence: 0.55, evidence: { tier2: { decision: 'undecided' } } });
    expect(out!.evidence).not.toHaveProperty('escalation');
  });

  it('passes confirmed, shadow and unlisted signals, and detectors without a rule, unchanged', () => {
    const gray = signalOf(toolLoop, pollingForever);
    const confirmed = { ...gray, confidence: 0.9 };
    const shadow = { ...gray, shadow: true };
    const other = { ...gray, detector: 'GOAL_ABANDONMENT' };
    const out = applyStateDeltas(pollingForever, [confirmed, shadow, other], all);
    expect(out.signals).toEqual([confirmed, shadow, other]);
    expect(out.checked).toBe(0);
    expect(applyStateDeltas(pollingForever, [gray], new Set(['TOOL_THRASHING'])).signals).toEqual([gray]);
  });
});

describe('tier 2 in a run', () => {
  it('decides in analyze() with no configuration, before embeddings and judges', async () => {
    const report = await analyze([pollingForever, pollingThatMovesOn], { baselines: false });
    const loops = report.signals.filter((s) => s.detector === 'TOOL_LOOP');
    expect(loops).toHaveLength(1);
    expect(loops[0]).toMatchObject({ traceId: 'polling', tier: 2, status: 'finding' });
    expect(loops[0]!.evidence).toMatchObject({ tier2: { decision: 'failure' } });
  });

  it('leaves what it cannot decide to review when the requests alone would decide tier 3', async () => {
    // One page fetched three times: twice the same text, then new text. Tier 2 cannot tell; tier 3
    // would only restate that the requests repeat (TOOL_LOOP measured that), so it does not check.
    const mixed = makeTrace(
      [
        tool('get_page', { args: { url: 'a' }, result: 'alpha' }),
        tool('get_page', { args: { url: 'a' }, result: 'alpha' }),
        tool('get_page', { args: { url: 'a' }, result: 'beta gamma' }),
      ],
      { id: 'mixed', output: 'done' },
    );
    const report = await analyze([mixed], { baselines: false });
    expect(report.review).toEqual([expect.objectContaining({ detector: 'TOOL_LOOP', confidence: 0.5 })]);
    const loop = report.signals.find((s) => s.detector === 'TOOL_LOOP')!;
    expect(loop.evidence).toMatchObject({ tier2: { decision: 'undecided' } });
    expect(loop.evidence).not.toHaveProperty('tier3');
  });

  it('is turned off by tiers.stateDeltas: [] (the signal goes on to tier 3)', async () => {
    const report = await analyze([pollingForever], {
      baselines: false,
      config: parseConfig('tiers:\n  stateDeltas: []\n'),
    });
    const loop = report.signals.find((s) => s.detector === 'TOOL_LOOP')!;
    expect(loop.tier).not.toBe(2);
    expect(loop.evidence).not.toHaveProperty('tier2');
  });

  it('decides the same way in the trace analyser the matchers use', () => {
    const analyser = createTraceAnalyser({ baselines: false });
    expect(analyser.analyse(pollingThatMovesOn).signals.filter((s) => s.detector === 'TOOL_LOOP')).toEqual(
      [],
    );
    const [loop] = analyser.analyse(pollingForever).signals.filter((s) => s.detector === 'TOOL_LOOP');
    expect(loop).toMatchObject({ tier: 2, status: 'finding' });
  });

  it('rejects a detector it has no rule for, and a misspelt one, naming the file line', () => {
    expect(() => parseConfig('tiers:\n  stateDeltas: [GOAL_ABANDONMENT]\n')).toThrow(
      /"GOAL_ABANDONMENT" has no tier-2 rule; tier 2 decides TOOL_LOOP, TOOL_THRASHING/,
    );
    expect(() => parseConfig('tiers:\n  stateDeltas: [TOOL_LOPO]\n')).toThrow(/did you mean "TOOL_LOOP"/);
  });
});

import { stateHashLoop } from '../../../src/detect/detectors/rules/stateHashLoop.js';
import { describe, expect, it } from 'vitest';
import { makeTrace, state, tool } from '../../helpers/traceBuilder.js';
import { runDetector, testDetector } from '../tester.js';

const A = { task: 'book flight', status: 'searching' };
const B = { task: 'book flight', status: 'failed' };

testDetector(stateHashLoop, {
  valid: [
    {
      name: 'state returns only twice (A B A B)',
      trace: makeTrace([state(A), state(B), state(A), state(B)]),
    },
    {
      name: 'progress: every state is new',
      trace: makeTrace([state({ n: 1 }), state({ n: 2 }), state({ n: 3 }), state({ n: 4 })]),
    },
    {
      name: 'loops split across two agents do not add up',
      trace: makeTrace([
        state(A, 'a'),
        state(A, 'b'),
        state(B, 'a'),
        state(B, 'b'),
        state(A, 'a'),
        state(A, 'b'),
      ]),
    },
    {
      // QA t7: `step` is a counter name, but here it is the workflow stage, and every state is new.
      name: 'a string-valued workflow stage under a counter name is state (step: collect_info → confirm)',
      trace: makeTrace(
        ['collect_info', 'search_flights', 'book', 'confirm'].map((step) => state({ order: 'A1', step })),
      ),
    },
    {
      name: 'a nested version label is state too (doc.version: draft → review → final)',
      trace: makeTrace(['draft', 'review', 'final'].map((version) => state({ doc: { version } }, 'w'))),
    },
    {
      name: 'whose turn it is, attempt outcomes: string values under counter names are compared',
      trace: makeTrace([
        state({ task: 't', turn: 'user', attempt: 'first' }),
        state({ task: 't', turn: 'agent', attempt: 'first' }),
        state({ task: 't', turn: 'user', attempt: 'second' }),
        state({ task: 't', turn: 'agent', attempt: 'second' }),
      ]),
    },
    {
      name: 'min_repeats raised',
      trace: makeTrace([state(A), state(B), state(A), state(B), state(A)]),
      config: { min_repeats: 4 },
    },
  ],
  invalid: [
    {
      name: 'same state three times (A B A B A): one loop, one signal',
      trace: makeTrace([state(A), tool('search'), state(B), state(A), state(B), state(A)]),
      signals: [
        {
          steps: [1, 4, 6],
          severity: 'high',
          confidence: 0.8,
          message: 'Agent "agent" is going round in circles',
        },
      ],
    },
    {
      name: 'same change three times once timestamps and counters are ignored',
      trace: makeTrace([
        state({ ...A, updated_at: '2025-01-01T00:00:01Z', iteration: 1 }),
        state({ ...B, updated_at: '2025-01-01T00:00:02Z', iteration: 2 }),
        state({ ...A, updated_at: '2025-01-01T00:00:03Z', iteration: 3 }),
        state({ ...B, updated_at: '2025-01-01T00:00:04Z', iteration: 4 }),
        state({ ...A, updated_at: '2025-01-01T00:00:05Z', iteration: 5 }),
        state({ ...B, updated_at: '2025-01-01T00:00:06Z', iteration: 6 }),
        state({ ...A, updated_at: '2025-01-01T00:00:07Z', iteration: 7 }),
      ]),
      signals: [
        {
          steps: [1, 2, 3, 4, 5, 6, 7],
          message: /made the same state change \(changed status\) 3 times/,
          confidence: 0.84,
        },
      ],
    },
    {
      name: 'stuck: the same state emitted three times in a row',
      trace: makeTrace([state(A), state(A), state(A)]),
      // Three visits are two returns: the first visit is not one.
      signals: [{ steps: [1, 2, 3], message: 'it returned to the same state 2 times, at steps 1, 2, 3' }],
    },
    {
      name: 'counters written as numbers, numeric strings or timestamps are still ignored',
      trace: makeTrace([
        state({ ...A, step: 1, version: '1.0.1', turn: '2025-01-01T00:00:01Z', attempt: null }),
        state({ ...A, step: 2, version: '1.0.2', turn: '2025-01-01T00:00:02Z', attempt: 1 }),
        state({ ...A, step: '3', version: 'v3', turn: '2025-01-01 00:00:03+02:00', attempt: 2 }),
      ]),
      signals: [{ steps: [1, 2, 3], message: 'it returned to the same state 2 times' }],
    },
    {
      name: 'one return is "1 time"',
      trace: makeTrace([state(A), state(B), state(A)]),
      config: { min_repeats: 2 },
      signals: [{ steps: [1, 3], message: 'it returned to the same state 1 time, at steps 1, 3 (' }],
    },
    {
      name: 'two separate loops are two signals',
      trace: makeTrace([
        state(A),
        state(A),
        state(A),
        state({ n: 1 }),
        state({ n: 2 }),
        state(B),
        state(B),
        state(B),
      ]),
      signals: [{ steps: [1, 2, 3] }, { steps: [6, 7, 8] }],
    },
  ],
});

describe('STATE_HASH_LOOP on a long run', () => {
  it('reports one loop made of more repeating hashes than spread arguments fit', () => {
    // 80,000 states, each seen twice, and the changes into them: 160,000 repeating hashes, one loop.
    const n = 80_000;
    const t = makeTrace([]);
    const cycle = Array.from({ length: n }, (_, i) => ({
      type: 'state' as const,
      agentId: 'a',
      state: { n: i },
    }));
    t.steps = [...cycle, ...cycle];
    const [s] = runDetector(stateHashLoop, t, { config: { min_repeats: 2 } });
    const listed = (s?.evidence?.repeats as unknown[]).length;
    expect(listed + (s?.evidence?.moreRepeats as number)).toBeGreaterThan(150_000);
    expect(s?.steps).toHaveLength(2 * n);
  }, 20_000);
});

describe('STATE_HASH_LOOP evidence on a long loop', () => {
  it('lists at most 50 steps per repeating state and 20 states, and keeps the whole counts', () => {
    // 30 distinct states, each visited 100 times in turn: one loop over 3,000 snapshots, in which
    // the 30 states and the 30 changes between them each repeat (60 repeating hashes).
    const states = Array.from({ length: 3_000 }, (_, i) => state({ phase: `p${i % 30}` }));
    const [signal] = runDetector(stateHashLoop, makeTrace(states));
    const repeats = signal!.evidence!.repeats as { count: number; steps: number[] }[];
    expect(repeats).toHaveLength(20);
    expect(signal!.evidence!.moreRepeats).toBe(40);
    for (const r of repeats) {
      expect(r.count).toBeGreaterThanOrEqual(99);
      expect(r.steps).toHaveLength(50);
    }
    expect(signal!.steps.length).toBeGreaterThan(1_000);
  });
});

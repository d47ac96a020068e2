import { describe, expect, it } from 'vitest';
import { percentile } from '../../src/baseline/percentile.js';
import {
  agentKey,
  agentLabel,
  baselineLookup,
  emptyBaselines,
  keysOfAgent,
  migrateBaselines,
  updateBaselines,
} from '../../src/baseline/store.js';
import { llm, makeTrace, tool } from '../helpers/traceBuilder.js';

const run = (id: string, tools: number, fields: object = {}) =>
  makeTrace([llm(), ...Array.from({ length: tools }, () => tool('search'))], {
    id,
    agentId: 'a',
    agentVersion: '1',
    ...fields,
  });

describe('per-agent baselines', () => {
  it('computes P75 with linear interpolation', () => {
    expect(percentile([1, 2, 3, 4, 5], 75)).toBe(4);
    expect(percentile([10, 20], 75)).toBe(17.5);
  });

  it('answers only from the 20th successful run on (static fallback before)', () => {
    let store = emptyBaselines();
    store = updateBaselines(
      store,
      Array.from({ length: 19 }, (_, i) => run(`r${i}`, 4)),
    );
    expect(baselineLookup(store)('a', '1', 'stepCount')).toBeUndefined();
    store = updateBaselines(store, [run('r19', 4)]);
    expect(baselineLookup(store)('a', '1', 'stepCount')).toEqual({ p75: 5, runs: 20, source: 'store' });
  });

  it('ignores failed runs and keeps versions apart', () => {
    let store = updateBaselines(
      emptyBaselines(),
      Array.from({ length: 25 }, (_, i) => run(`ok${i}`, 2)),
    );
    store = updateBaselines(
      store,
      Array.from({ length: 25 }, (_, i) => run(`bad${i}`, 40, { status: 'error' })),
    );
    expect(baselineLookup(store)('a', '1', 'stepCount')).toEqual({ p75: 3, runs: 25, source: 'store' });
    expect(baselineLookup(store)('a', '2', 'stepCount')).toBeUndefined();
  });

  it('keeps only the newest 50 runs', () => {
    let store = updateBaselines(
      emptyBaselines(),
      Array.from({ length: 50 }, (_, i) => run(`old${i}`, 1)),
    );
    store = updateBaselines(
      store,
      Array.from({ length: 50 }, (_, i) => run(`new${i}`, 9)),
    );
    expect(store.agents['a@1']!.runs).toHaveLength(50);
    expect(baselineLookup(store)('a', '1', 'stepCount')).toEqual({ p75: 10, runs: 50, source: 'store' });
  });

  it('re-recording a trace id replaces the earlier run instead of counting it twice', () => {
    let store = updateBaselines(emptyBaselines(), [run('same', 1)]);
    store = updateBaselines(store, [run('same', 3)]);
    expect(store.agents['a@1']!.runs).toEqual([
      expect.objectContaining({ traceId: 'same', metrics: expect.objectContaining({ stepCount: 4 }) }),
    ]);
  });

  const at = (day: number) => new Date(Date.UTC(2024, 0, 1) + day * 86_400_000).toISOString();

  it('keeps the 50 most recent runs by run time, not the most recently added', () => {
    let store = updateBaselines(
      emptyBaselines(),
      Array.from({ length: 50 }, (_, i) => run(`new${i}`, 9, { startedAt: at(100 + i) })),
    );
    store = updateBaselines(
      store,
      Array.from({ length: 30 }, (_, i) => run(`old${i}`, 1, { startedAt: at(i) })),
    );
    expect(store.agents['a@1']!.runs.map((r) => r.traceId)).toEqual(
      Array.from({ length: 50 }, (_, i) => `new${i}`),
    );
    expect(baselineLookup(store)('a', '1', 'stepCount')).toEqual({ p75: 10, runs: 50, source: 'store' });
  });

  it('dates a run by endedAt without startedAt, and an undated run by when it was recorded', () => {
    const store = updateBaselines(
      emptyBaselines(),
      [run('undated', 1), run('ended', 1, { endedAt: at(5) }), run('started', 1, { startedAt: at(1) })],
      50,
      new Date(at(10)),
    );
    expect(store.agents['a@1']!.runs.map((r) => r.traceId)).toEqual(['started', 'ended', 'undated']);
  });

  it('re-recording a run keeps its place in the window', () => {
    let store = updateBaselines(emptyBaselines(), [run('u', 1)], 50, new Date(at(1)));
    store = updateBaselines(store, [run('d', 1, { startedAt: at(5) })]);
    store = updateBaselines(store, [run('u', 3)], 50, new Date(at(9)));
    expect(store.agents['a@1']!.runs).toEqual([
      expect.objectContaining({
        traceId: 'u',
        recordedAt: at(1),
        metrics: expect.objectContaining({ stepCount: 4 }),
      }),
      expect.objectContaining({ traceId: 'd' }),
    ]);
  });

  it('keeps different runs that share a trace id apart (ids repeat across experiments)', () => {
    let store = updateBaselines(emptyBaselines(), [run('task-1-trial-0', 1, { startedAt: at(1) })]);
    store = updateBaselines(store, [run('task-1-trial-0', 3, { startedAt: at(2) })]);
    store = updateBaselines(store, [run('task-1-trial-0', 5, { startedAt: at(2) })]);
    expect(store.agents['a@1']!.runs.map((r) => r.metrics.stepCount)).toEqual([2, 6]);
  });

  it('gives agent "x@1" without a version and agent "x" at version 1 separate baselines', () => {
    const store = updateBaselines(
      emptyBaselines(),
      Array.from({ length: 20 }, (_, i) => [
        run(`a${i}`, 1, { agentId: 'x@1', agentVersion: undefined }),
        run(`b${i}`, 9, { agentId: 'x', agentVersion: '1' }),
      ]).flat(),
    );
    expect(baselineLookup(store)('x@1', undefined, 'stepCount')).toEqual({
      p75: 2,
      runs: 20,
      source: 'store',
    });
    expect(baselineLookup(store)('x', '1', 'stepCount')).toEqual({ p75: 10, runs: 20, source: 'store' });
    expect(agentKey('bot', undefined)).toBe('bot');
    expect(agentKey('bot', '1.2')).toBe('bot@1.2');
  });

  it('reads version 1 files, whose keys did not escape the agent id', () => {
    const runs = [{ traceId: 't', metrics: { stepCount: 3 } }];
    const store = migrateBaselines({
      version: 1,
      agents: { bot: { runs }, 'bot@2': { runs }, 'team@bot@3': { runs }, '100%@1': { runs } },
    });
    expect(store.version).toBe(2);
    const lookup = baselineLookup(store, 1);
    expect(lookup('bot', undefined, 'stepCount')).toEqual({ p75: 3, runs: 1, source: 'store' });
    expect(lookup('bot', '2', 'stepCount')).toEqual({ p75: 3, runs: 1, source: 'store' });
    expect(lookup('team@bot', '3', 'stepCount')).toEqual({ p75: 3, runs: 1, source: 'store' });
    expect(lookup('100%', '1', 'stepCount')).toEqual({ p75: 3, runs: 1, source: 'store' });
  });
});

describe('agent keys as the CLI prints them', () => {
  it('shows a version that already names its agent once, ids unescaped, and takes the label back', () => {
    // Langfuse's release `docs-assistant@2.3.1` is the version of agent `docs-assistant`.
    const key = agentKey('docs-assistant', 'docs-assistant@2.3.1');
    expect(key).toBe('docs-assistant@docs-assistant@2.3.1');
    expect(agentLabel(key)).toBe('docs-assistant@2.3.1');
    expect(agentLabel(agentKey('bot', '1.2'))).toBe('bot@1.2');
    expect(agentLabel(agentKey('team@bot', undefined))).toBe('team@bot');
    expect(agentLabel(agentKey('50%', '2'))).toBe('50%@2');
    const store = updateBaselines(emptyBaselines(), [
      run('r1', 1, { agentId: 'docs-assistant', agentVersion: 'docs-assistant@2.3.1' }),
      run('r2', 1, { agentId: 'bot', agentVersion: '1.2' }),
    ]);
    expect(keysOfAgent(store, 'docs-assistant@2.3.1')).toEqual([key]);
    expect(keysOfAgent(store, 'docs-assistant')).toEqual([key]);
    expect(keysOfAgent(store, 'bot@1.2')).toEqual(['bot@1.2']);
  });
});

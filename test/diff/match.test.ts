import { describe, expect, it } from 'vitest';
import { matchSignals, persistingFindings, taskLookup } from '../../src/diff/match.js';
import { finding, report, trace } from './reports.js';

describe('signal matching', () => {
  it('reads a renamed trace as one new and one resolved finding', () => {
    const m = matchSignals([finding({ traceId: 'run-1' })], [finding({ traceId: 'run-1-renamed' })]);
    expect(m.persisting).toBe(0);
    expect(m.new.map((s) => s.traceId)).toEqual(['run-1-renamed']);
    expect(m.resolved.map((s) => s.traceId)).toEqual(['run-1']);
  });

  it('keeps the same trace id in two files apart', () => {
    const m = matchSignals(
      [finding({ traceId: 't1', file: 'a.jsonl' })],
      [finding({ traceId: 't1', file: 'a.jsonl' }), finding({ traceId: 't1', file: 'b.jsonl' })],
    );
    expect(m.persisting).toBe(1);
    expect(m.new).toHaveLength(1);
    expect(m.new[0]).toMatchObject({ traceId: 't1', file: 'b.jsonl' });
    expect(m.resolved).toEqual([]);
  });

  it('pairs a detector that fires more than once in a trace by count', () => {
    const twice = [finding({ traceId: 't', steps: [3] }), finding({ traceId: 't', steps: [9] })];
    const thrice = [...twice, finding({ traceId: 't', steps: [15] })];
    const up = matchSignals(twice, thrice);
    expect(up).toMatchObject({ persisting: 2, resolved: [] });
    expect(up.new.map((s) => s.steps)).toEqual([[15]]);
    const down = matchSignals(twice, [finding({ traceId: 't', steps: [3] })]);
    expect(down).toMatchObject({ persisting: 1, new: [] });
    expect(down.resolved.map((s) => s.steps)).toEqual([[9]]);
  });

  it('matches by test name and detector when signals belong to a Vitest test', () => {
    // Trace ids of a captured test run differ every run; the test is what stays.
    const m = matchSignals(
      [finding({ traceId: 'a81f', test: 'agent > books a flight' })],
      [
        finding({ traceId: '77c2', test: 'agent > books a flight' }),
        finding({ traceId: '77c2', test: 'agent > books a flight', detector: 'RETRY_LOOP' }),
      ],
    );
    expect(m.persisting).toBe(1);
    expect(m.new).toHaveLength(1);
    expect(m.new[0]).toMatchObject({ detector: 'RETRY_LOOP', test: 'agent > books a flight' });
  });

  it('tells findings on different tools or models of one trace apart', () => {
    const onModel = (model: string) =>
      finding({ traceId: 't', detector: 'RETRY_LOOP', evidence: { model, calls: 6 } });
    const m = matchSignals([onModel('gpt-4o')], [onModel('gpt-4o-mini')]);
    expect(m.persisting).toBe(0);
    expect(m.new[0]!.subject).toBe('gpt-4o-mini');
    expect(m.resolved[0]!.subject).toBe('gpt-4o');
    const onTool = (tool: string) => finding({ traceId: 't', evidence: { tool } });
    expect(matchSignals([onTool('search')], [onTool('search')]).persisting).toBe(1);
  });

  it('matches findings only: review, shadow and suppressed signals are neither new nor resolved', () => {
    const m = matchSignals(
      [finding({ traceId: 't', status: 'shadow', shadow: true })],
      [
        finding({ traceId: 'u', status: 'review', confidence: 0.5 }),
        finding({ traceId: 'v', status: 'suppressed' }),
      ],
    );
    expect(m).toEqual({ new: [], resolved: [], persisting: 0 });
  });

  it('matches runs of one task across trace ids and files when the reports name the task', () => {
    // Trial 0 of task 3 looped in base, trial 2 of it loops in head: the same place, persisting.
    const base = report({
      traces: [trace({ id: 'task-3-trial-0', file: 'base.json', task: '3' })],
      signals: [finding({ traceId: 'task-3-trial-0', file: 'base.json' })],
    });
    const head = report({
      traces: [
        trace({ id: 'task-3-trial-2', file: 'head.json', task: '3' }),
        trace({ id: 'task-4-trial-2', file: 'head.json', task: '4' }),
      ],
      signals: [
        finding({ traceId: 'task-3-trial-2', file: 'head.json' }),
        finding({ traceId: 'task-4-trial-2', file: 'head.json' }),
      ],
    });
    const tasks = { baseTask: taskLookup(base), headTask: taskLookup(head) };
    const m = matchSignals(base.signals, head.signals, tasks);
    expect(m.persisting).toBe(1);
    expect(m.new.map((s) => s.traceId)).toEqual(['task-4-trial-2']);
    expect(m.resolved).toEqual([]);
    // Without task keys, every one of them is new or resolved.
    expect(matchSignals(base.signals, head.signals).persisting).toBe(0);
    expect(persistingFindings(base, head).map((s) => s.traceId)).toEqual(['task-3-trial-2']);
  });
});

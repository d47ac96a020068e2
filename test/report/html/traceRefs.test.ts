import { describe, expect, it } from 'vitest';
import { traceRefsOfReport } from '../../../src/report/html/traceRefs.js';
import type { Report } from '../../../src/report/schema.js';

const summary = (id: string, file: string, line?: number) =>
  ({ id, file, ...(line ? { line } : {}) }) as Report['traces'][number];
const sig = (traceId: string, file: string, status: Report['signals'][number]['status']) =>
  ({ traceId, file, status, detector: 'D' }) as Report['signals'][number];

describe('the traces a report page shows', () => {
  it('ranks each trace by its worst signal: finding or review, then any other, then none', () => {
    const refs = traceRefsOfReport({
      traces: [
        summary('a', 'x.jsonl', 1),
        summary('b', 'x.jsonl', 2),
        summary('c', 'x.jsonl', 3),
        summary('d', 'y.json'),
        summary('a', 'y.json'),
      ],
      signals: [
        sig('b', 'x.jsonl', 'suppressed'),
        sig('c', 'x.jsonl', 'shadow'),
        sig('c', 'x.jsonl', 'finding'),
        sig('a', 'y.json', 'review'),
      ],
      review: [{ traceId: 'd', file: 'y.json', reason: 'r' }],
      tests: undefined,
    });
    expect(refs.map((r) => [r.id, r.file, r.line, r.priority])).toEqual([
      ['a', 'x.jsonl', 1, 2],
      ['b', 'x.jsonl', 2, 1],
      ['c', 'x.jsonl', 3, 0],
      ['d', 'y.json', undefined, 0],
      // The same id in another file is another trace.
      ['a', 'y.json', undefined, 0],
    ]);
  });

  it("takes a Vitest run's saved copies, failing tests' first, each naming the tests that saved it", () => {
    const test = (
      name: string,
      state: 'passed' | 'failed',
      saved: { id: string; file: string; line: number }[],
    ) => ({ name, state, savedTraces: saved }) as NonNullable<Report['tests']>[number];
    const refs = traceRefsOfReport({
      traces: [summary('ignored', 'evals/a.test.ts')],
      signals: [],
      review: [],
      tests: [
        test('passes', 'passed', [{ id: 'p', file: '.tracejury/traces/passes.jsonl', line: 1 }]),
        test('fails', 'failed', [
          { id: 'f', file: '.tracejury/traces/fails.jsonl', line: 1 },
          { id: 'f', file: '.tracejury/traces/fails.jsonl', line: 2 },
        ]),
        test('fails too', 'failed', [{ id: 'f', file: '.tracejury/traces/fails.jsonl', line: 1 }]),
      ],
    });
    expect(refs.map((r) => [r.id, r.line, r.priority, r.tests])).toEqual([
      ['f', 1, 0, ['fails', 'fails too']],
      ['f', 2, 0, ['fails']],
      ['p', 1, 1, ['passes']],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { leftOutLines, whyNotEmbedded } from '../../report-ui/src/model/leftOut.js';
import type { PageTraces } from '../../src/report/html/pageData.js';

const traces = (leftOut: Partial<PageTraces['leftOut']>, embedded = 2): PageTraces => ({
  embedded: Array.from({ length: embedded }, (_, block) => ({
    block,
    id: `t${block}`,
    file: 'a.jsonl',
    bytes: 1,
  })),
  leftOut: {
    traces: 0,
    withFindings: 0,
    overBudget: 0,
    budgetBytes: 25 * 1024 * 1024,
    unreadable: [],
    notFound: 0,
    ...leftOut,
  },
  howToGetAll: 'Run with --html-traces all.',
});

describe('what the page says it left out', () => {
  it('says nothing when every trace is in the page', () => {
    expect(leftOutLines(traces({}))).toEqual([]);
  });

  it('says how many, how many had findings, the budget and how to get them', () => {
    const lines = leftOutLines(
      traces({
        traces: 30,
        withFindings: 4,
        overBudget: 28,
        unreadable: [{ file: '<stdin>', reason: 'not a file', traces: 2 }],
      }),
    );
    expect(lines).toEqual([
      '30 traces are not embedded in this page (4 with findings or review items); 2 traces are.',
      '28 left out by the 25 MB budget for embedded traces (findings first). Run with --html-traces all.',
      '<stdin>: not a file (2 traces).',
    ]);
  });

  it("says why one trace's timeline is missing", () => {
    const t = traces({
      traces: 1,
      unreadable: [{ file: 'gone.jsonl', reason: 'no such file or directory', traces: 1 }],
    });
    expect(whyNotEmbedded(t, 'gone.jsonl')).toBe(
      'Its file could not be read again: no such file or directory.',
    );
    expect(whyNotEmbedded(traces({ traces: 1, overBudget: 1 }), 'a.jsonl')).toMatch(
      /budget.*--html-traces all/,
    );
  });
});

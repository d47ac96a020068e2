import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/analyze.js';
import { createPricer } from '../../../src/pricing/pricer.js';
import { collectTraces } from '../../../src/report/html/collectTraces.js';
import { traceRefsOfReport, type TraceRef } from '../../../src/report/html/traceRefs.js';
import type { Report } from '../../../src/report/schema.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';

const padding = (n: number) => 'x'.repeat(n);
/** A trace with nothing to find, about `size` bytes. */
const plain = (id: string, size = 2000) => makeTrace([llm({ output: padding(size) })], { id, agentId: 'a' });
/** A tool that fails three times in a row: a RETRY_STORM finding. */
const storm = (id: string) =>
  makeTrace(
    [
      llm({ model: 'gpt-4o', usage: { inputTokens: 1000, outputTokens: 10 } }),
      ...[1, 2, 3].map(() =>
        tool('charge', { status: 'error', error: '402 </script><img src=x onerror=alert(1)>' }),
      ),
      llm({ output: padding(1500) }),
    ],
    { id, agentId: 'a' },
  );

let dir: string;
let report: Report;
let refs: TraceRef[];
let sizes: Map<string, number>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tracejury-collect-'));
  mkdirSync(path.join(dir, 'runs'));
  const lines = [plain('A'), plain('B'), storm('C'), plain('D')].map((t) => JSON.stringify(t));
  writeFileSync(path.join(dir, 'runs', 'run.jsonl'), `${lines.join('\n')}\n`);
  report = await analyze(['runs/run.jsonl'], { cwd: dir, baselines: false });
  refs = traceRefsOfReport(report);
  const all = await collectTraces(refs, { cwd: dir, budgetBytes: null });
  sizes = new Map(all.traces.map((t) => [t.ref.id, t.bytes]));
});

describe('collectTraces', () => {
  it('reads every trace the report names again, as the run read it, with no budget', async () => {
    expect(refs.map((r) => [r.id, r.priority])).toEqual([
      ['A', 2],
      ['B', 2],
      ['C', 0],
      ['D', 2],
    ]);
    const all = await collectTraces(refs, { cwd: dir, budgetBytes: null, pricer: createPricer() });
    expect(all.traces.map((t) => [t.ref.id, t.ref.line])).toEqual([
      ['A', 1],
      ['B', 2],
      ['C', 3],
      ['D', 4],
    ]);
    expect(all.leftOut).toMatchObject({
      traces: 0,
      withFindings: 0,
      overBudget: 0,
      notFound: 0,
      unreadable: [],
    });
    // Priced as the run priced it: the page shows each call's cost.
    const c = JSON.parse(all.traces[2]!.json);
    expect(c.steps[0].costUsd).toBeGreaterThan(0);
  });

  it('embeds JSON that cannot end its <script> element', async () => {
    const all = await collectTraces(refs, { cwd: dir, budgetBytes: null });
    const c = all.traces.find((t) => t.ref.id === 'C')!;
    expect(c.json).not.toMatch(/<\/script|<img|<!--/i);
    expect(JSON.parse(c.json).steps[1].error).toBe('402 </script><img src=x onerror=alert(1)>');
  });

  it('gives the budget to traces with findings first, then to the rest in order while room is left', async () => {
    // Room for A and B, or for A and C, not for three: C's finding is taken first, then A, not B.
    const budget = sizes.get('A')! + Math.max(sizes.get('B')!, sizes.get('C')!) + 10;
    const got = await collectTraces(refs, { cwd: dir, budgetBytes: budget });
    expect(got.traces.map((t) => t.ref.id)).toEqual(['A', 'C']);
    expect(got.leftOut).toMatchObject({
      traces: 2,
      withFindings: 0,
      overBudget: 2,
      budgetBytes: budget,
      notFound: 0,
    });
  });

  it('leaves out a trace with findings that does not fit, and counts it', async () => {
    const got = await collectTraces(refs, { cwd: dir, budgetBytes: 100 });
    expect(got.traces).toEqual([]);
    expect(got.leftOut).toMatchObject({ traces: 4, withFindings: 1, overBudget: 4 });
  });

  it('says which files it could not read again, and why, and still reads the others', async () => {
    const extra: TraceRef[] = [
      { id: 'x', file: 'gone.jsonl', priority: 0 },
      { id: 'y', file: '<stdin>', priority: 0 },
      { id: 'z', file: '../outside.jsonl', priority: 0 },
      { id: 'not-there', file: 'runs/run.jsonl', line: 9, priority: 0 },
      ...refs,
    ];
    const got = await collectTraces(extra, { cwd: dir, budgetBytes: null, within: dir });
    expect(got.traces.map((t) => t.ref.id)).toEqual(['A', 'B', 'C', 'D']);
    expect(got.leftOut.unreadable).toEqual([
      { file: 'gone.jsonl', reason: 'no such file or directory', traces: 1 },
      {
        file: '<stdin>',
        reason: expect.stringMatching(/^<stdin> is not a file: .*write them to a file/),
        traces: 1,
      },
      { file: '../outside.jsonl', reason: `outside ${dir}: not read`, traces: 1 },
    ]);
    expect(got.leftOut).toMatchObject({ traces: 4, withFindings: 4, notFound: 1 });
  });
});

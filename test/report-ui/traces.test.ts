import { describe, expect, it } from 'vitest';
import { buildTraceIndex } from '../../report-ui/src/model/traces.js';
import type { DiffPage } from '../../src/diff/htmlPageData.js';
import { cleanTrace, pageOf, stormTrace } from './pageFixture.js';

describe('the trace index', () => {
  it('finds a trace by file and id, or by id alone, with its summary, block and findings', async () => {
    const page = await pageOf([stormTrace(), cleanTrace()]);
    const index = buildTraceIndex(page);
    const storm = index.find('storm-1', '<input>[0]')!;
    expect(storm.summary?.agentId).toBe('support');
    expect(storm.embedded?.block).toBe(0);
    expect(storm.markers.map((m) => m.detector)).toContain('RETRY_STORM');
    expect(index.find('storm-1')).toBe(storm);
    expect(index.find('storm-1', 'another.jsonl')).toBeUndefined();
    expect(index.find('clean-1')!.markers).toEqual([]);
  });

  it('knows a trace whose timeline the budget left out, without a block', async () => {
    const page = await pageOf([stormTrace(), cleanTrace()], 0);
    const entry = buildTraceIndex(page).find('storm-1')!;
    expect(entry.summary).toBeDefined();
    expect(entry.embedded).toBeUndefined();
  });

  it("reaches a Vitest run's saved copy through the test that saved it", async () => {
    const page = await pageOf([stormTrace()]);
    const test = 'evals/agent.test.ts > cancels';
    page.report.traces = page.report.traces.map((t) => ({ ...t, file: 'evals/agent.test.ts', test }));
    page.report.signals = page.report.signals.map((s) => ({ ...s, file: 'evals/agent.test.ts', test }));
    page.traces.embedded = [
      {
        block: 0,
        id: 'storm-1',
        file: '.tracejury/traces/cancels-1a2b.jsonl',
        line: 1,
        bytes: 10,
        tests: [test],
      },
    ];
    const entry = buildTraceIndex(page).find('storm-1', 'evals/agent.test.ts')!;
    expect(entry.embedded?.file).toBe('.tracejury/traces/cancels-1a2b.jsonl');
    expect(entry.markers.length).toBeGreaterThan(0);
  });

  it("marks a diff's new and persisting findings on head's embedded traces", () => {
    const signal = (traceId: string, detector: string) => ({
      detector,
      severity: 'high' as const,
      traceId,
      file: 'head.jsonl',
      line: 3,
      steps: [2],
      message: 'm',
    });
    const page = {
      kind: 'diff',
      diff: {
        signals: {
          new: [signal('a', 'RETRY_STORM')],
          resolved: [signal('gone', 'TOOL_LOOP')],
          persisting: 1,
        },
      },
      persisting: [signal('a', 'CONTEXT_BLOAT')],
      traces: { embedded: [{ block: 0, id: 'a', file: 'head.jsonl', line: 3, bytes: 1 }], leftOut: {} },
    } as unknown as DiffPage;
    const index = buildTraceIndex(page);
    expect(index.find('a', 'head.jsonl')!.markers.map((m) => [m.detector, m.status])).toEqual([
      ['RETRY_STORM', 'new'],
      ['CONTEXT_BLOAT', 'persisting'],
    ]);
    expect(index.find('a', 'head.jsonl')!.embedded?.block).toBe(0);
    // A resolved finding is base's: its trace is not head's, nothing is drawn for it.
    expect(index.find('gone')).toBeUndefined();
  });
});

/**
 * Report pages built the way the renderer builds them: analyze() over small traces, then the page
 * data with the traces embedded, so the view model is tested on the real contract.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyze } from '../../src/analyze.js';
import { collectTraceObjects } from '../../src/report/html/collectTraces.js';
import type { ReportPage } from '../../src/report/html/pageData.js';
import { reportPage } from '../../src/report/html/reportPage.js';
import type { Trace } from '../../src/trace/schema.js';
import { llm, makeTrace, tool } from '../helpers/traceBuilder.js';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();

/** A tool that fails three times in a row (RETRY_STORM) on steps 2–4. */
export const stormTrace = (id = 'storm-1', agentId = 'support') =>
  makeTrace(
    [
      llm({ startedAt: at(0), durationMs: 800 }),
      ...[1, 2, 3].map((i) =>
        tool('cancel_subscription', {
          args: { id: 42 },
          status: 'error',
          error: '403 Forbidden',
          startedAt: at(i),
          durationMs: 200,
        }),
      ),
      llm({ startedAt: at(5), durationMs: 500, output: 'I could not cancel it.' }),
    ],
    { id, agentId },
  );

export const cleanTrace = (id = 'clean-1', agentId = 'billing') =>
  makeTrace([llm({ startedAt: at(0), durationMs: 400 }), tool('lookup', { result: { ok: true } })], {
    id,
    agentId,
  });

export async function pageOf(traces: Trace[], budgetBytes: number | null = null): Promise<ReportPage> {
  const report = await analyze(traces, {
    cwd: mkdtempSync(path.join(tmpdir(), 'tracejury-page-')),
    baselines: false,
  });
  return reportPage(report, collectTraceObjects(report, traces, budgetBytes));
}

/**
 * The reporter's HTML page: written beside report.json by default with the failing tests' saved
 * traces embedded, where the `html` option says, or not at all with `html: false`.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { htmlReportPath } from '../../../vitest-plugin/main/plugin.js';
import { TracejuryReporter } from '../../../vitest-plugin/reporter/reporter.js';
import { META_KEY } from '../../../vitest-plugin/shared/meta.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';

/** A project whose one test failed and saved its trace, as a worker does, under .tracejury/traces/. */
function failedRun() {
  const root = mkdtempSync(path.join(tmpdir(), 'tj-reporter-html-'));
  mkdirSync(path.join(root, '.tracejury', 'traces'), { recursive: true });
  const saved = '.tracejury/traces/evals-refund-test-ts-refunds-1a2b3c4d.jsonl';
  const trace = makeTrace([llm(), tool('refund', { status: 'error', error: 'card declined' })], {
    id: 'refund-1',
  });
  writeFileSync(path.join(root, saved), `${JSON.stringify(trace)}\n`);
  const testCase = {
    fullName: 'refunds',
    location: { line: 4 },
    parent: { type: 'module' },
    meta: () => ({
      [META_KEY]: {
        traces: [],
        trajectories: [],
        verdicts: [],
        sessions: [],
        attempts: [false],
        inputErrors: [],
        savedTraces: [{ id: 'refund-1', file: saved, line: 1 }],
      },
    }),
    result: () => ({ state: 'failed', errors: [{ message: 'expected no signals' }] }),
  };
  const modules = [
    { moduleId: path.join(root, 'evals/refund.test.ts'), children: { allTests: () => [testCase] } },
  ] as unknown as TestModule[];
  return { root, modules, saved };
}

const pageOf = (html: string) => JSON.parse(/id="tj-page">([\s\S]*?)<\/script>/.exec(html)![1]!);

describe("the Vitest reporter's HTML report", () => {
  it('is written beside report.json with the failing test and its saved trace', async () => {
    const { root, modules, saved } = failedRun();
    const reporter = new TracejuryReporter({
      root,
      report: '.tracejury/report.json',
      html: htmlReportPath('.tracejury/report.json', undefined),
      summary: false,
      failOn: ['critical', 'high'],
    });
    await reporter.onTestRunEnd(modules);
    const html = readFileSync(path.join(root, '.tracejury', 'report.html'), 'utf8');
    const page = pageOf(html);
    expect(page.report.tests.map((t: { name: string; state: string }) => [t.name, t.state])).toEqual([
      ['evals/refund.test.ts > refunds', 'failed'],
    ]);
    expect(page.traces.embedded).toEqual([
      {
        block: 0,
        id: 'refund-1',
        file: saved,
        line: 1,
        bytes: expect.any(Number),
        tests: ['evals/refund.test.ts > refunds'],
      },
    ]);
    const trace = JSON.parse(/id="tj-trace-0">([\s\S]*?)<\/script>/.exec(html)![1]!);
    expect(trace.steps[1]).toMatchObject({ name: 'refund', error: 'card declined' });
  });

  it('is not written with html: false', async () => {
    const { root, modules } = failedRun();
    const reporter = new TracejuryReporter({
      root,
      report: '.tracejury/report.json',
      html: htmlReportPath('.tracejury/report.json', false),
      summary: false,
      failOn: ['high'],
    });
    await reporter.onTestRunEnd(modules);
    expect(existsSync(path.join(root, '.tracejury', 'report.json'))).toBe(true);
    expect(existsSync(path.join(root, '.tracejury', 'report.html'))).toBe(false);
  });

  it('goes beside a report.json written elsewhere, or where the html option says', () => {
    expect(htmlReportPath('out/tracejury.json', undefined)).toBe('out/tracejury.html');
    expect(htmlReportPath(false, undefined)).toBe(path.join('.tracejury', 'report.html'));
    expect(htmlReportPath('.tracejury/report.json', 'site/evals.html')).toBe('site/evals.html');
    expect(htmlReportPath('.tracejury/report.json', false)).toBe(false);
  });
});

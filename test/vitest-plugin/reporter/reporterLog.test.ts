/**
 * The reporter's summary is printed into the CI log: a test name or error that carries a newline
 * and a workflow command, or terminal control, is shown, never obeyed.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestModule, Vitest } from 'vitest/node';
import { TracejuryReporter } from '../../../vitest-plugin/reporter/reporter.js';

describe('the reporter’s summary in the log', () => {
  it('has no line a runner would read as a workflow command, and no raw control character', () => {
    const root = path.resolve('/tmp/project');
    const testCase = {
      fullName: 'answers\n::add-mask::ghp_16C7e42F292c6912E7710c838347Ae178B4a\r::stop-commands::x',
      location: { line: 3 },
      parent: { type: 'module' },
      meta: () => ({}),
      result: () => ({ state: 'failed', errors: [{ message: '\x1b[2J::error file=a.ts::forged' }] }),
    };
    const module = {
      moduleId: path.join(root, 'evals/a.test.ts'),
      children: { allTests: () => [testCase] },
    };
    const logs: string[] = [];
    const reporter = new TracejuryReporter({
      root,
      report: false,
      summary: true,
      failOn: ['critical', 'high'],
    });
    reporter.onInit({ logger: { log: (t: string) => logs.push(t) }, config: {} } as unknown as Vitest);
    reporter.onTestRunEnd([module] as unknown as TestModule[]);
    const log = logs.join('\n');
    expect(log).toContain('answers');
    expect(log).not.toMatch(/(^|[\r\n])\s*(::|##\[)/);
    expect(log).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(log).not.toContain('ghp_16C7e42F');
  });
});

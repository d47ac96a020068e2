/**
 * The Vitest reporter's HTML page, from a real Vitest run of a fixture project: the failing test is
 * listed first with its error, and its trace (the copy the plugin saved) opens on its timeline.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cspViolations, describeInBrowser, launchBrowser, type Browser } from '../../helpers/browser.js';
import { configWith, createProject, type Project } from '../../helpers/vitestProject.js';

const STORM = JSON.stringify({
  id: 'cancel-7',
  agentId: 'billing',
  steps: [
    { type: 'llm', model: 'gpt-4o', output: 'cancelling', usage: { inputTokens: 300, outputTokens: 10 } },
    ...[1, 2, 3].map(() => ({
      type: 'tool',
      name: 'cancel_subscription',
      args: { id: 7 },
      status: 'error',
      error: '403 Forbidden',
    })),
    {
      type: 'llm',
      model: 'gpt-4o',
      output: 'I could not cancel it.',
      usage: { inputTokens: 400, outputTokens: 10 },
    },
  ],
});

const TESTS = `
import { expect, test } from 'vitest';
import { loadTraces } from 'tracejury/vitest';

test('cancels without retrying', async () => {
  const [trace] = await loadTraces('traces/cancel.jsonl');
  expect(trace).toHaveNoSignals();
});

test('answers', () => {
  expect(1 + 1).toBe(2);
});
`;

describeInBrowser("the Vitest reporter's HTML report in a browser", () => {
  let browser: Browser;
  let project: Project;

  beforeAll(async () => {
    project = createProject({
      'vitest.config.ts': configWith(),
      'traces/cancel.jsonl': `${STORM}\n`,
      'agent.test.ts': TESTS,
    });
    const run = await project.run();
    expect(run.output).toMatch(/1 failed \| 1 passed/);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(() => browser?.close());

  it('shows the failing test and opens the trace it captured on its timeline', async () => {
    const { page, network, problems } = await browser.open(
      path.join(project.dir, '.tracejury', 'report.html'),
      '#tests',
    );
    const first = page.locator('[data-testid="test"]').first();
    expect(await first.textContent()).toMatch(
      /^failed.*agent\.test\.ts > cancels without retrying.*expected trace cancel-7 to have no signals.*RETRY_STORM/s,
    );
    const link = first.locator('[data-testid="test-trace"]');
    expect(await link.textContent()).toBe('cancel-7 (saved, timeline)');
    await link.locator('a').click();
    const view = page.locator('[data-testid="trace-view"]');
    await view.waitFor();
    expect(await view.getAttribute('data-trace-id')).toBe('cancel-7');
    const failed = page.locator('.tl-row.failed');
    expect(await failed.count()).toBe(3);
    expect(await failed.first().textContent()).toMatch(/cancel_subscription.*403 Forbidden/);
    expect(await cspViolations(page)).toEqual([]);
    expect(network).toEqual([]);
    expect(problems).toEqual([]);
  });
});

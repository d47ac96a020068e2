/**
 * A failed multi-agent run in the HTML report, in headless Chromium: the root cause above the
 * timeline, its step marked, one lane per agent, the findings that follow from it pointing back,
 * and each step named in the banner a button that opens it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { htmlReportAnchor } from '../../../src/report/html/anchor.js';
import type { Report } from '../../../src/report/schema.js';
import { cspViolations, describeInBrowser, launchBrowser, type Browser } from '../../helpers/browser.js';
import { cli } from '../../helpers/cli.js';

/** Planner's search fails and is never retried; Booker then books the same flight over and over. */
const run = {
  id: 'team-run-1',
  agentId: 'travel-team',
  outcome: { success: false, source: 'native outcome' },
  steps: [
    { type: 'message', from: 'user', content: 'Book the 9am flight to Lyon.' },
    { type: 'llm', model: 'gpt-4o-mini', agent: 'Planner', output: 'searching' },
    {
      type: 'tool',
      name: 'search_flights',
      issuedBy: 2,
      status: 'error',
      error: 'Error: service unavailable',
    },
    { type: 'llm', model: 'gpt-4o-mini', agent: 'Booker', output: 'booking' },
    ...Array.from({ length: 4 }, () => ({
      type: 'tool',
      name: 'book_flight',
      agent: 'Booker',
      args: { flight: 'LY9' },
      result: { status: 'pending' },
    })),
  ],
};

describeInBrowser('failure attribution in the HTML report', () => {
  let browser: Browser;
  let html: string;
  let report: Report;
  let file: string;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-rootcause-'));
    file = path.join(dir, 'team.jsonl');
    writeFileSync(file, `${JSON.stringify(run)}\n`);
    html = path.join(dir, 'report.html');
    const json = path.join(dir, 'report.json');
    await cli(['analyze', file, '--out', html, '--state-dir', dir], dir);
    await cli(['analyze', file, '--out', json, '--state-dir', dir], dir);
    report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    browser = await launchBrowser();
  }, 60_000);

  afterAll(() => browser?.close());

  it('shows the root cause, marks its step and the lanes, and links the symptoms to it', async () => {
    const summary = report.traces[0]!;
    expect(summary.rootCause).toMatchObject({ step: 3, agent: 'Planner', rule: 'UNRECOVERED_FAILURE' });
    const { page, network, problems } = await browser.open(
      html,
      htmlReportAnchor({ traceId: run.id, file: summary.file }),
    );
    await page.locator('[data-testid="trace-view"]').waitFor();

    const banner = page.locator('[data-testid="root-cause"]');
    expect(await banner.textContent()).toMatch(
      /Root cause: step 3, Planner — its search_flights call failed \(Error: service unavailable\).*\(UNRECOVERED_FAILURE, 0\.70\)/,
    );
    // The root cause's step is open, marked, and in Planner's lane.
    expect(await page.locator('.tl-row.selected').getAttribute('data-step')).toBe('3');
    const root = page.locator('.tl-row.root-cause');
    expect(await root.getAttribute('data-step')).toBe('3');
    expect(await root.locator('[data-testid="cause-root"]').textContent()).toBe('root cause');
    expect(
      await page.locator('.tl-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-agent'))),
    ).toEqual([null, 'Planner', 'Planner', 'Booker', 'Booker', 'Booker', 'Booker', 'Booker']);
    expect(await page.locator('[data-testid="agent-lane"]').count()).toBe(7);

    // The loop that followed points back at it, and the banner's link opens it.
    const loopStart =
      summary.rootCause && 'step' in summary.rootCause ? summary.rootCause.symptoms[0]! : undefined;
    expect(loopStart).toMatchObject({ detector: 'TOOL_LOOP' });
    const symptomRow = page.locator(`.tl-row[data-step="${loopStart!.step}"]`);
    expect(await symptomRow.locator('[data-testid="follows-from"]').textContent()).toBe(
      'follows from step 3',
    );
    await page.locator('[data-testid="symptoms"] button').first().click();
    expect(await page.locator('.tl-row.selected').getAttribute('data-step')).toBe(String(loopStart!.step));
    await page.locator('[data-testid="root-cause-step"]').click();
    expect(await page.locator('.tl-row.selected').getAttribute('data-step')).toBe('3');

    expect(network).toEqual([]);
    expect(problems).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
    await page.close();
  });
});

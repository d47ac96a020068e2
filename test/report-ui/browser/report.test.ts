/**
 * The analyze report of the bundled examples and a diff between two of their analyses, opened from
 * file:// in headless Chromium with every network request failing the test: the findings list, a
 * RETRY_STORM finding opened on its timeline, the filters, the PR comment's anchor, new and
 * resolved findings.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { htmlReportAnchor } from '../../../src/report/html/anchor.js';
import type { Report } from '../../../src/report/schema.js';
import {
  cspViolations,
  describeInBrowser,
  launchBrowser,
  type Browser,
  type OpenedPage,
} from '../../helpers/browser.js';
import { cli } from '../../helpers/cli.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const CONFIG = ['--config', 'examples/tracejury.yml'];

describeInBrowser('the HTML report in a browser', () => {
  let browser: Browser;
  let dir: string;
  let reportHtml: string;
  let report: Report;
  const opened: OpenedPage[] = [];
  const open = async (file: string, hash?: string) => {
    const o = await browser.open(file, hash);
    opened.push(o);
    return o;
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tracejury-browser-'));
    reportHtml = path.join(dir, 'report.html');
    const json = path.join(dir, 'report.json');
    expect((await cli(['analyze', 'examples/traces', ...CONFIG, '--out', reportHtml], root)).code).toBe(0);
    expect((await cli(['analyze', 'examples/traces', ...CONFIG, '--out', json], root)).code).toBe(0);
    report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    browser = await launchBrowser();
  }, 60_000);

  afterAll(() => browser?.close());

  // Whatever a test did, the page asked for nothing over the network and broke no rule of its CSP.
  afterEach(async () => {
    for (const o of opened.splice(0)) {
      expect(o.network, 'network requests').toEqual([]);
      expect(o.problems, 'errors on the page').toEqual([]);
      expect(await cspViolations(o.page), 'CSP violations').toEqual([]);
      await o.page.close();
    }
  });

  it("lists every finding with its detector and trace, under the detector's fix", async () => {
    const { page } = await open(reportHtml);
    const findings = report.signals.filter((s) => s.status === 'finding');
    expect(findings.length).toBeGreaterThan(5);
    for (const s of findings) {
      const group = page.locator(`[data-detector="${s.detector}"]`);
      await group.waitFor();
      const traces = await group.locator('[data-testid="finding-trace"]').allTextContents();
      expect(traces, `${s.detector} lists ${s.traceId}`).toContain(s.traceId);
    }
    const storm = page.locator('[data-detector="RETRY_STORM"]');
    expect(await storm.locator('.fix').textContent()).toMatch(/^Fix: /);
    expect(await page.locator('[data-testid="gate"]').textContent()).toMatch(/Gate passed/);
  });

  it("opens a RETRY_STORM finding on its trace's timeline, the failing tool and its error in view", async () => {
    const { page } = await open(reportHtml);
    await page.locator('[data-detector="RETRY_STORM"] [data-testid="finding"] a').first().click();
    const view = page.locator('[data-testid="trace-view"]');
    await view.waitFor();
    expect(await view.getAttribute('data-trace-id')).toBe('support-002');
    expect(new URL(page.url()).hash).toBe(
      `${htmlReportAnchor({ traceId: 'support-002', file: 'examples/traces/native-support-agent.jsonl', detector: 'RETRY_STORM' })}&step=5`,
    );
    const highlighted = page.locator('.tl-row.highlighted');
    expect(await highlighted.count()).toBe(3);
    for (const text of ['cancel_subscription', '403 Forbidden'])
      expect(await highlighted.first().getByText(text).first().isVisible(), text).toBe(true);
    // The first step of the finding is open: the tool, its status and its error.
    const panel = page.locator('[data-testid="step-panel"]');
    expect(await panel.isVisible()).toBe(true);
    expect(await panel.textContent()).toMatch(/Step 5.*cancel_subscription.*error.*403 Forbidden/s);
  });

  it("opens the PR comment's anchor on that trace, with that detector's steps marked", async () => {
    const anchor = htmlReportAnchor({
      traceId: 'order_status_2001',
      file: 'examples/traces/llm-calls.jsonl',
      detector: 'RETRY_LOOP',
    });
    const { page } = await open(reportHtml, anchor);
    await page.locator('[data-testid="trace-view"]').waitFor();
    const marked = await page
      .locator('.tl-row.highlighted')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-step')));
    const loop = report.signals.find(
      (s) => s.detector === 'RETRY_LOOP' && s.traceId === 'order_status_2001',
    )!;
    expect(marked).toEqual(loop.steps.map(String));
    expect(await page.locator('.marker.highlighted').textContent()).toContain('RETRY_LOOP');
  });

  it('narrows the list with each filter, and the address keeps the filters', async () => {
    const { page } = await open(reportHtml);
    const rows = page.locator('[data-testid="finding"]');
    expect(await rows.count()).toBe(report.signals.length);
    await page.selectOption('select[name="severity"]', 'high');
    const high = report.signals.filter((s) => s.severity === 'high');
    expect(await rows.count()).toBe(high.length);
    expect(await page.locator('[data-testid="shown-count"]').textContent()).toBe(
      `${high.length} of ${report.signals.length} signals`,
    );
    await page.selectOption('select[name="detector"]', 'RETRY_STORM');
    expect(await rows.count()).toBe(1);
    expect(new URL(page.url()).hash).toBe('#findings?detector=RETRY_STORM&severity=high');
    await page.selectOption('select[name="status"]', 'suppressed');
    expect(await rows.count()).toBe(0);
    // A reload of the filtered address shows the same list.
    await page.selectOption('select[name="status"]', '');
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    expect(await rows.count()).toBe(1);
  });

  it('shows the diff: new findings open their timeline, resolved ones are listed', async () => {
    const base = path.join(dir, 'base.json');
    const head = path.join(dir, 'head.json');
    const diffHtml = path.join(dir, 'diff.html');
    await cli(
      [
        'analyze',
        'examples/traces/llm-calls.jsonl',
        'examples/traces/langfuse-export.json',
        ...CONFIG,
        '--out',
        base,
      ],
      root,
    );
    await cli(
      [
        'analyze',
        'examples/traces/native-support-agent.jsonl',
        'examples/traces/langfuse-export.json',
        ...CONFIG,
        '--out',
        head,
      ],
      root,
    );
    // newSignals on: the deterministic-replay rule, under which these new findings fail the gate.
    const strict = path.join(dir, 'strict.yml');
    writeFileSync(strict, 'regression:\n  newSignals: { minSeverity: high }\n');
    await cli(['diff', base, head, '--config', strict, '--out', diffHtml], root);
    const { page } = await open(diffHtml);
    expect(await page.locator('[data-testid="gate"]').textContent()).toMatch(/Regression gate FAILED/);
    expect(await page.locator('[data-testid="verdict"]').textContent()).toMatch(
      /^❌ \d+ new findings at high or worse on tasks clean in every base run/,
    );
    const fresh = page.locator('[data-testid="new-finding"]');
    expect(
      (await fresh.allTextContents()).map((t) => /RETRY_STORM|EMPTY_LLM_RESPONSE/.exec(t)?.[0]).sort(),
    ).toEqual(['EMPTY_LLM_RESPONSE', 'RETRY_STORM']);
    await page.click('a[href="#resolved"]');
    const resolved = page.locator('[data-testid="resolved-finding"]');
    await resolved.first().waitFor();
    const baseReport = JSON.parse(readFileSync(base, 'utf8')) as Report;
    expect(await resolved.count()).toBe(baseReport.signals.filter((s) => s.status === 'finding').length - 1);
    expect(await resolved.allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('order_status_2001')]),
    );
    await page.click('a[href="#new"]');
    await fresh.filter({ hasText: 'RETRY_STORM' }).locator('a').click();
    await page.locator('[data-testid="trace-view"]').waitFor();
    expect(await page.locator('.tl-row.highlighted').first().textContent()).toContain('cancel_subscription');
  });

  it('shows the quantities, and the tasks whose outcome flipped, each opening its run in head', async () => {
    const run = (id: string, task: string, success: boolean) =>
      JSON.stringify({
        id,
        taskId: task,
        agentId: 'support',
        outcome: { success, source: 'test' },
        steps: [{ type: 'tool', name: success ? 'lookup_order' : 'cancel_subscription' }],
      });
    const base = path.join(dir, 'flip-base.jsonl');
    const head = path.join(dir, 'flip-head.jsonl');
    writeFileSync(base, [run('a-1', 'refund', true), run('b-1', 'track', false)].join('\n') + '\n');
    writeFileSync(head, [run('a-2', 'refund', false), run('b-2', 'track', true)].join('\n') + '\n');
    const reports = ['base', 'head'].map((side) => path.join(dir, `flip-${side}.json`));
    await cli(['analyze', base, '--out', reports[0]!], dir);
    await cli(['analyze', head, '--out', reports[1]!], dir);
    const diffHtml = path.join(dir, 'flip.html');
    await cli(['diff', reports[0]!, reports[1]!, '--out', diffHtml], dir);
    const { page } = await open(diffHtml);
    await page.click('a[href="#changes"]');
    const success = page.locator('[data-testid="quantities"] tr[data-quantity="success"]');
    await success.waitFor();
    expect(await success.textContent()).toContain('2 tasks paired');
    await page.click('a[href="#outcomes"]');
    const toFail = page.locator('[data-testid="flipped-to-fail"]');
    await toFail.waitFor();
    expect(await toFail.textContent()).toContain('refund');
    expect(await page.locator('[data-testid="flipped-to-pass"]').textContent()).toContain('track');
    await toFail.locator('a.trace-link').first().click();
    await page.locator('[data-testid="trace-view"]').waitFor();
    expect(await page.locator('[data-testid="trace-view"]').getAttribute('data-trace-id')).toBe('a-2');
    expect(await page.locator('.tl-row').first().textContent()).toContain('cancel_subscription');
  });
});

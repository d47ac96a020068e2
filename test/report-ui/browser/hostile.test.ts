/**
 * A hostile trace renders inert: script, event-handler and javascript: payloads in every string a
 * trace can carry (ids, agent, tool names, arguments, results, errors, prompts, outputs, retrieved
 * text, messages, state, the file's own name) show as text, and a flag any of them would set stays
 * unset while every step is opened and every tab visited. No Content-Security-Policy violation
 * either: nothing ever tried to become an element or a request.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cspViolations, describeInBrowser, launchBrowser, type Browser } from '../../helpers/browser.js';
import { cli } from '../../helpers/cli.js';

const PAYLOADS = [
  '<script>window.__pwned="script"</script>',
  '<img src=x onerror="window.__pwned=\'img\'">',
  'a string with "</script><script>window.__pwned=\'breakout\'</script>" inside',
  'javascript:window.__pwned="link"',
  '<svg onload="window.__pwned=\'svg\'"></svg>',
  '<a href="javascript:window.__pwned=\'anchor\'">click me</a>',
  '<!-- <iframe srcdoc="<script>parent.__pwned=\'iframe\'</script>"></iframe>',
];
const ALL = PAYLOADS.join(' ');

function hostileTrace(id: string) {
  const failing = (i: number) => ({
    type: 'tool',
    name: `charge ${PAYLOADS[i % PAYLOADS.length]}`,
    args: { [PAYLOADS[0]!]: PAYLOADS[1], nested: [PAYLOADS[2]] },
    result: ALL,
    status: 'error',
    error: `${PAYLOADS[(i + 1) % PAYLOADS.length]} 403`,
    issuedBy: 1,
  });
  return {
    id,
    agentId: `agent ${PAYLOADS[1]}`,
    agentVersion: PAYLOADS[4],
    sessionId: PAYLOADS[5],
    input: ALL,
    metadata: { [PAYLOADS[3]!]: ALL },
    steps: [
      {
        type: 'llm',
        model: `gpt-4o ${PAYLOADS[0]}`,
        input: [
          { role: 'system', content: ALL },
          { role: `user ${PAYLOADS[1]}`, name: PAYLOADS[4], content: [{ type: 'text', text: ALL }] },
        ],
        output: { role: 'assistant', content: ALL, toolCalls: [{ name: PAYLOADS[3]!, arguments: ALL }] },
        finishReason: PAYLOADS[6],
        usage: { inputTokens: 10, outputTokens: 5 },
      },
      failing(0),
      failing(1),
      failing(2),
      { type: 'retrieval', query: ALL, results: [{ id: PAYLOADS[5], content: ALL, score: 0.5 }] },
      { type: 'message', from: PAYLOADS[2], to: PAYLOADS[3], content: ALL },
      { type: 'state', agentId: PAYLOADS[4], state: { [PAYLOADS[0]!]: ALL } },
      {
        type: 'llm',
        model: 'gpt-4o',
        output: '',
        finishReason: 'stop',
        usage: { inputTokens: 10, outputTokens: 0 },
      },
    ],
  };
}

describeInBrowser('a hostile trace in the HTML report', () => {
  let browser: Browser;
  let html: string;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-hostile-html-'));
    // The file's name is hostile too: the page shows it beside every finding.
    const file = 'run <img src=x onerror=window.__pwned=8>.jsonl';
    const ids = [PAYLOADS[3]!, `${PAYLOADS[1]} ${PAYLOADS[2]}`];
    writeFileSync(path.join(dir, file), ids.map((id) => JSON.stringify(hostileTrace(id))).join('\n') + '\n');
    html = path.join(dir, 'report.html');
    const result = await cli(['analyze', file, '--out', html], dir);
    expect(result.stderr).toBe('');
    browser = await launchBrowser();
  }, 60_000);

  afterAll(() => browser?.close());

  it('sets no flag and breaks no CSP rule while every finding, step and tab is opened', async () => {
    const { page, network, problems } = await browser.open(html);
    const pwned = () => page.evaluate(() => (globalThis as unknown as { __pwned?: unknown }).__pwned);
    const findings = page.locator('[data-testid="finding"] a');
    const count = await findings.count();
    expect(count).toBeGreaterThan(2);
    for (let i = 0; i < count; i++) {
      await page.goto(page.url().split('#')[0]!);
      await page.waitForSelector('body[data-ready="true"]');
      await page.locator('[data-testid="finding"] a').nth(i).click();
      await page.locator('[data-testid="trace-view"]').waitFor();
      const rows = page.locator('.tl-row');
      for (let r = 0; r < (await rows.count()); r++) {
        await rows.nth(r).click();
        await page.locator('[data-testid="step-panel"]').waitFor();
        const more = page.locator('[data-testid="step-panel"] button', { hasText: /^show all/ });
        for (let m = 0; m < (await more.count()); m++) await more.nth(m).click();
      }
      expect(await pwned(), `after finding ${i}`).toBeUndefined();
    }
    // The payloads are on screen as the text they are.
    await page.locator('.tl-row').nth(1).click();
    const panel = (await page.locator('[data-testid="step-panel"]').textContent()) ?? '';
    for (const p of PAYLOADS.slice(0, 3)) expect(panel).toContain(p);
    for (const tab of ['#traces', '#sessions', '#run', '#findings']) {
      await page.evaluate(
        (h) => ((globalThis as unknown as { location: { hash: string } }).location.hash = h),
        tab,
      );
      await page.waitForTimeout(50);
    }
    // A trace whose id is a javascript: URL opens as a trace, through the page's own address.
    await page.locator('a.trace-link', { hasText: 'javascript:' }).first().click();
    await page.locator('[data-testid="trace-view"]').waitFor();
    expect(await page.locator('[data-testid="trace-view"]').getAttribute('data-trace-id')).toBe(PAYLOADS[3]);
    expect(await pwned()).toBeUndefined();
    // No element was made from data: the page holds no img, svg, iframe or inline handler.
    expect(await page.locator('img, svg, iframe, [onerror], [onload], a[href^="javascript:"]').count()).toBe(
      0,
    );
    expect(await cspViolations(page)).toEqual([]);
    expect(network).toEqual([]);
    expect(problems).toEqual([]);
  }, 120_000);
});

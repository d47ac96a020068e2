/**
 * Bidi controls in the HTML report are shown as visible escapes, as the terminal and the markdown
 * report show them (issue 29, item 9): a trace id, a file name, a tool name, an error and a
 * message that carry U+202E (right-to-left override), U+2066–2069 (isolates) or U+200F (a
 * direction mark) are written `\u{202e}` wherever the page shows them, in the findings, the traces
 * list, the timeline, the step panel and tooltips, so none reads as something else. The trace still
 * opens by its real id: only what is shown is escaped.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, launchBrowser, type Browser } from '../../helpers/browser.js';
import { cli } from '../../helpers/cli.js';

/** `invoice‮fdp.exe` reads as `invoiceexe.pdf`: the override turns what follows around. */
const ID = 'invoice\u202efdp.exe';
const FILE = 'runs \u2066isolated\u2069 \u200fmarked.jsonl';
const RAW_BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describeInBrowser('bidi controls in the HTML report', () => {
  let browser: Browser;
  let html: string;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-bidi-html-'));
    const trace = {
      id: ID,
      agentId: 'agent \u202bembedded\u202c',
      steps: [
        {
          type: 'llm',
          model: 'gpt-4o',
          output: 'reply \u202ecba',
          usage: { inputTokens: 10, outputTokens: 2 },
        },
        ...Array.from({ length: 4 }, () => ({
          type: 'tool',
          name: 'search\u202e',
          args: { q: 'rtl \u202ekcatta' },
          status: 'error',
          error: 'denied \u2067rtl isolate\u2069',
        })),
      ],
    };
    writeFileSync(path.join(dir, FILE), `${JSON.stringify(trace)}\n`);
    html = path.join(dir, 'report.html');
    const result = await cli(['analyze', FILE, '--out', html], dir);
    expect(result.code).toBe(1);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(() => browser?.close());

  it('shows every bidi control as an escape, on every tab, in the timeline and the step panel', async () => {
    const { page, problems } = await browser.open(html);
    const shown = async () => {
      const text = await page.evaluate(
        () =>
          (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText,
      );
      const titles = await page.evaluate(() =>
        [
          ...(
            globalThis as unknown as {
              document: { querySelectorAll(s: string): { getAttribute(n: string): string | null }[] };
            }
          ).document.querySelectorAll('[title]'),
        ].map((e) => e.getAttribute('title') ?? ''),
      );
      return [text, ...titles].join('\n');
    };
    const findings = await shown();
    expect(findings).not.toMatch(RAW_BIDI);
    expect(findings).toContain('invoice\\u{202e}fdp.exe');
    expect(findings).toContain('runs \\u{2066}isolated\\u{2069} \\u{200f}marked.jsonl');

    for (const tab of ['#traces', '#sessions', '#run', '#review']) {
      await page.evaluate(
        (h) => ((globalThis as unknown as { location: { hash: string } }).location.hash = h),
        tab,
      );
      await page.waitForTimeout(50);
      expect(await shown(), tab).not.toMatch(RAW_BIDI);
    }

    // The trace opens by its real id; its timeline and each step show the escapes.
    await page.evaluate(
      (h) => ((globalThis as unknown as { location: { hash: string } }).location.hash = h),
      '#findings',
    );
    await page.locator('[data-testid="finding"] a').first().click();
    await page.locator('[data-testid="trace-view"]').waitFor();
    expect(await page.locator('[data-testid="trace-view"]').getAttribute('data-trace-id')).toBe(ID);
    const rows = page.locator('.tl-row');
    for (let r = 0; r < (await rows.count()); r++) {
      await rows.nth(r).click();
      await page.locator('[data-testid="step-panel"]').waitFor();
      const text = await shown();
      expect(text, `step ${r + 1}`).not.toMatch(RAW_BIDI);
    }
    const panel = (await page.locator('[data-testid="step-panel"]').textContent()) ?? '';
    expect(panel).toContain('denied \\u{2067}rtl isolate\\u{2069}');
    expect(problems).toEqual([]);
  }, 120_000);
});

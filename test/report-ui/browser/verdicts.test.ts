/**
 * The judges in view, from a real Vitest run of a fixture project whose verdicts were recorded
 * from judges (a loopback server speaking the OpenAI and Anthropic wire formats), then replayed
 * from the cassette as CI does: on each test and on its trace, each verdict's outcome, score and
 * confidence against the threshold, each judge's model, score and reasoning, and "replayed from the
 * cassette". A judge's reasoning is hostile text: shown as text, never markup. The gate badge of a
 * test run speaks of its tests, and a trace of a test is named by its test.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cspViolations, describeInBrowser, launchBrowser, type Browser } from '../../helpers/browser.js';
import { configWith, createProject, nativeTrace, type Project } from '../../helpers/vitestProject.js';
import {
  anthropicReply,
  byModel,
  openaiReply,
  startFakeServer,
  type ReceivedRequest,
} from '../../judge/fakeServers.js';

const HOSTILE = '<img src=x onerror="document.title=1">refuses a question it could answer';

const REFUSAL = JSON.stringify({
  ...JSON.parse(nativeTrace('refusal-1', 1)),
  output: 'I cannot help with that.',
});

const TESTS = `
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
const read = (f) => JSON.parse(readFileSync(f, 'utf8'));

test('the answer is judged helpful', async () => {
  await expect(read('traces/helpful.json')).toPassTribunal({ rubric: 'helpfulness' });
});

test('a refusal passes the judges (fails on purpose)', async () => {
  await expect(read('traces/refusal.json')).toPassTribunal({ rubric: 'helpfulness' });
});

test('the flaky lookup loops, as expected', () => {
  expect(read('traces/looping.json')).toHaveSignal('TOOL_LOOP');
});
`;

function config(openai: string, anthropic: string): string {
  return [
    'tribunal:',
    '  judges:',
    `    - { provider: openai, model: gpt-4o, baseURL: "${openai}" }`,
    `    - { provider: anthropic, model: claude-sonnet-4-6, baseURL: "${anthropic}" }`,
    '  threshold: 0.7',
    '  rubrics:',
    '    helpfulness: The answer helps the user with what they asked, directly.',
    '',
  ].join('\n');
}

describeInBrowser('the judges’ verdicts in the HTML report of a Vitest run', () => {
  let browser: Browser;
  let project: Project;
  let summary: string;

  beforeAll(async () => {
    const answer = (model: string, reply: typeof openaiReply) => (req: ReceivedRequest) =>
      reply(
        JSON.stringify(req.body).includes('I cannot help')
          ? { score: 0.2, confidence: 0.9, passed: false, reasoning: HOSTILE }
          : { score: 0.9, confidence: 0.8, passed: true, reasoning: 'answers the weather question directly' },
        model,
      );
    const judges = await startFakeServer((req, nth) =>
      byModel({
        'gpt-4o': () => answer('gpt-4o', openaiReply)(req),
        'claude-sonnet-4-6': () => answer('claude-sonnet-4-6', anthropicReply)(req),
      })(req, nth),
    );
    project = createProject({
      'vitest.config.ts': configWith(),
      'tracejury.yml': config(judges.openaiBaseURL, judges.anthropicBaseURL),
      'traces/helpful.json': nativeTrace('helpful-1', 1),
      'traces/refusal.json': REFUSAL,
      'traces/looping.json': nativeTrace('loop-1', 6),
      'evals.test.ts': TESTS,
    });
    const keys = { OPENAI_API_KEY: 'test-key', ANTHROPIC_API_KEY: 'test-key', TRACEJURY_CASSETTE: 'record' };
    const recorded = await project.run([], { env: keys, timeoutMs: 90_000 });
    await judges.close();
    expect(recorded.output).toMatch(/Tests\s+1 failed \| 2 passed/);
    // Replayed, as CI does: no key, and no judge to ask.
    const replay = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', TRACEJURY_CASSETTE: 'replay' };
    const replayed = await project.run([], { env: replay, timeoutMs: 90_000 });
    expect(replayed.output).toMatch(/Tests\s+1 failed \| 2 passed/);
    summary = replayed.output;
    browser = await launchBrowser();
  }, 240_000);

  afterAll(() => browser?.close());

  const report = () => path.join(project.dir, '.tracejury', 'report.html');

  it('shows each verdict on its test: outcome, score against the threshold, each judge, replayed', async () => {
    const { page, network, problems } = await browser.open(report(), '#tests');
    const failing = page.locator('[data-testid="test"]', { hasText: 'a refusal passes the judges' });
    const verdict = failing.locator('[data-testid="verdict"]');
    expect(await verdict.getAttribute('data-outcome')).toBe('failed');
    const facts = await verdict.locator('[data-testid="verdict-facts"]').textContent();
    expect(facts).toMatch(/^score 0\.20 < 0\.7, confidence 0\.90 ≥ 0\.7 · 0 of 2 judges passed · /);
    expect(facts).toMatch(/ · replayed from the cassette$/);
    const judges = verdict.locator('[data-testid="judge"]');
    expect(await judges.count()).toBe(2);
    const gpt = judges.filter({ hasText: 'openai:gpt-4o' });
    expect(await gpt.locator('.judge-facts').textContent()).toBe(
      'openai:gpt-4o — failed, score 0.20, confidence 0.90, replayed',
    );
    // The reasoning, markup and all, is text on the page: no element was made of it.
    expect(await gpt.locator('pre').textContent()).toBe(HOSTILE);
    expect(await page.locator('img').count()).toBe(0);

    const passing = page.locator('[data-testid="test"]', { hasText: 'the answer is judged helpful' });
    const passed = passing.locator('[data-testid="verdict"]');
    expect(await passed.getAttribute('data-outcome')).toBe('passed');
    expect(await passed.locator('[data-testid="verdict-facts"]').textContent()).toMatch(
      /^score 0\.90 ≥ 0\.7, confidence 0\.80 ≥ 0\.7 · 2 of 2 judges passed · .* · replayed from the cassette$/,
    );
    expect(await passed.locator('pre').first().textContent()).toBe('answers the weather question directly');
    // A test no judge looked at shows no verdict.
    const looping = page.locator('[data-testid="test"]', { hasText: 'the flaky lookup loops' });
    expect(await looping.locator('[data-testid="verdict"]').count()).toBe(0);

    expect(await page.title()).not.toBe('1');
    expect(await cspViolations(page)).toEqual([]);
    expect(network).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('shows the verdict on the trace, named by its test, and does not say nothing was said of it', async () => {
    const { page, problems } = await browser.open(report(), '#tests');
    const passing = page.locator('[data-testid="test"]', { hasText: 'the answer is judged helpful' });
    await passing.locator('[data-testid="test-trace"] a').click();
    const view = page.locator('[data-testid="trace-view"]');
    await view.waitFor();
    expect(await view.getAttribute('data-trace-id')).toBe('helpful-1');
    expect(await view.locator('.trace-title').textContent()).toBe(
      'evals.test.ts > the answer is judged helpful trace helpful-1',
    );
    expect(await view.locator('[data-testid="no-findings"]').textContent()).toBe(
      'No detector fired on this trace; the judges gave a verdict (below).',
    );
    const verdict = view.locator('[data-testid="verdict"]');
    expect(await verdict.getAttribute('data-outcome')).toBe('passed');
    expect(await verdict.locator('[data-testid="judge"]').allTextContents()).toEqual([
      expect.stringMatching(
        /^openai:gpt-4o — passed, score 0\.90, confidence 0\.80, replayedanswers the weather/,
      ),
      expect.stringMatching(
        /^anthropic:claude-sonnet-4-6 — passed, score 0\.90, confidence 0\.80, replayedanswers/,
      ),
    ]);
    expect(problems).toEqual([]);
  });

  it('names a trace of a test by its test, in the findings and in the text summary', async () => {
    const { page } = await browser.open(report(), '#findings');
    const where = await page.locator('[data-testid="finding-trace"]').allTextContents();
    expect(where.length).toBeGreaterThan(0);
    expect(new Set(where)).toEqual(new Set(['evals.test.ts > the flaky lookup loops, as expected']));
    expect(summary).toMatch(
      /\n {6}evals\.test\.ts > the flaky lookup loops, as expected: get_weather called 6×/,
    );
    expect(summary).not.toMatch(/loop-1 \(traces\/looping\.json\)/);
    // The summary lists the verdicts too, the cassette's word included.
    expect(summary).toContain(
      'Judges: 2 verdicts: 1 passed, 1 failed, 0 indeterminate (2 replayed from the cassette)',
    );
  });

  it('says the gate of a test run is its tests, not a failOn rule beside the findings a test expected', async () => {
    const { page } = await browser.open(report(), '#tests');
    const gate = page.locator('[data-testid="gate"]');
    expect(await gate.locator('.gate-word').textContent()).toBe('Gate FAILED');
    expect(await gate.locator('.gate-rule').textContent()).toBe('tests — 2 passed, 1 failed');
    expect(await gate.textContent()).not.toContain('failOn');
  });
});

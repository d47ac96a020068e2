/**
 * The bundled Action (dist/index.js) end to end, run as the runner runs it (see actionRunner.ts)
 * against a loopback GitHub: a push to main uploads the next baseline; a pull request's first run
 * finds it and creates the comment among 35 older ones (one a stranger's that starts with the
 * marker, left alone), the second updates that same comment; a token without write permissions
 * degrades to warnings and the job summary; a bad input fails before any work; the fork pattern's workflow_run job comments from a downloaded report; three
 * Vitest shards end in one merged comment. A Vitest run's HTML report and its failing tests' traces
 * are uploaded as artifacts of the run and linked from the comment, the job summary and the check
 * run, and the link opens the report; the fork pattern's comment job links part 1's artifacts. The token never shows outside the Authorization header.
 * Under the Node running the suite, and Node 24 when TRACEJURY_NODE24 names its binary (CI installs it).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
import { report, trace } from '../diff/reports.js';

const TOKEN = 'ghs_e2eLoopbackToken0123456789abcdefABCDEF';
const MARKER = commentMarker('default');
const PR = 7;
const PR_HEAD = 'feedbeef00000000000000000000000000000000';

const nodes: [string, string][] = [[`node ${process.versions.node.split('.')[0]}`, process.execPath]];
// The Action runs on node24: when the suite itself runs on another line, run the bundle on 24 too
// (TRACEJURY_NODE24 names the binary; CI runs this file on Node 24 itself, so it does not set it).
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
  // Recorded traces replayed as they are, the same on both sides: a deterministic suite, which is
  // where a new high finding on its own fails the gate (by default only a change beyond noise does).
  writeFileSync(path.join(dir, 'tracejury.yml'), 'regression:\n  newSignals: { minSeverity: high }\n');
  // The PR's change: a second run in this JSONL loops (its finding points at line 2).
  if (withPrChange)
    writeFileSync(
      path.join(dir, 'traces/looping-agent.jsonl'),
      `${nativeTrace('calm-run-1', 1)}\n${nativeTrace('loop-run-1', 6)}\n`,
    );
  return dir;
}

/**
 * What actions/download-artifact does in the fork pattern's part 2: the file part 1 uploaded, put
 * inside this job's own workspace (the Action reads and writes nothing outside it).
 */
function downloaded(ws: string, file: string, name: string): string {
  const to = path.join(ws, 'downloaded', name);
  mkdirSync(path.dirname(to), { recursive: true });
  cpSync(file, to);
  return to;
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

/**
 * A Vitest project whose one test fails on a looping trace (its trace is saved under
 * .tracejury/traces/), with a base report of the same trace's calm run to compare with.
 */
function loopingSuite() {
  const project = createProject({
    'vitest.config.ts': configWith(),
    'traces/checkout.json': nativeTrace('checkout-1', 6),
    'evals/checkout.test.ts':
      `import { expect, test } from 'vitest';\nimport { loadTraces } from 'tracejury/vitest';\n` +
      `test('checkout does not loop', async () => {\n  const [t] = await loadTraces('traces/checkout.json');\n  expect(t).toHaveNoSignals({ minSeverity: 'high' });\n});\n`,
    'base-report.json': JSON.stringify(
      report({ traces: [trace({ id: 'checkout-1', file: 'traces/checkout.json' })] }),
    ),
  });
  return project;
}

/**
 * The eval command: the suite, then (until the Vitest reporter writes `.tracejury/report.html`
 * itself) a stand-in HTML beside the report, as a step before the Action could write it; the
 * suite's exit status is the command's.
 */
const suiteCommand = (node: string) =>
  `${JSON.stringify(node)} ${JSON.stringify(path.join(REPO, 'node_modules/vitest/vitest.mjs'))} run; s=$?; ` +
  `test -f .tracejury/report.html || printf '%s' '<!doctype html><title>tracejury report</title>' > .tracejury/report.html; exit $s`;

// Each test runs the bundled Action in a process of its own (the Vitest ones run Vitest inside it):
// seconds on a quiet machine, minutes at load 17, where the 20 s default and a 90 s bound on the
// child failed four of these. The bounds are hang guards, not measures.
vi.setConfig({ testTimeout: 180_000 });

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
    // The baseline, and the HTML report the Action wrote for the traces it analysed.
    expect(uploaded.map((a) => a.name).sort()).toEqual([
      'tracejury-report-default.html',
      'tracejury-report-default.json',
    ]);
    const baselineJson = uploaded.find((a) => a.name.endsWith('.json'))!;
    expect(JSON.parse(baselineJson.bytes.toString('utf8')).inputs.traces).toBeGreaterThan(0);
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
    const prRun = addRun(store, { branch: 'feature', event: 'pull_request', workflowFile: 'tracejury.yml' });
    const run = await action({
      workspace: workspace(true),
      eventName: 'pull_request',
      payload: pullRequestPayload(),
      inputs: { traces: 'traces' },
      env: {
        GITHUB_REF: `refs/pull/${PR}/merge`,
        GITHUB_SHA: 'a'.repeat(40),
        ...artifactEnv(gh, prRun),
        GITHUB_RUN_ID: String(prRun.id),
      },
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
    expect(body).toContain(
      '### tracejury ❌ 1 new finding at high or worse on a task clean in every base run (rule regression.newSignals.minSeverity: high)',
    );
    expect(body).toMatch(/#### New findings \([1-9]/);
    expect(body).toContain('`TOOL_LOOP`');
    // The finding's trace file is linked at the PR's head commit.
    expect(body).toContain(`(https://github.com/acme/agent/blob/${PR_HEAD}/traces/looping-agent.jsonl#L2)`);
    expect(body).toContain('<details><summary>Detectors: ');
    expect(body).toContain(
      `[Full report in the job summary](https://github.com/acme/agent/actions/runs/${prRun.id})`,
    );
    // The traces analysed here get their HTML report from the Action itself, uploaded and linked:
    // the looping trace is in it, and the new finding opens it on that trace.
    const html = store.artifacts.find(
      (a) => a.runId === prRun.id && a.name === 'tracejury-report-default.html',
    )!;
    expect(html.contentType).toBe('text/html');
    expect(html.bytes.toString('utf8')).toMatch(/^<!doctype html>/i);
    expect(html.bytes.toString('utf8')).toContain('loop-run-1');
    const htmlUrl = `https://github.com/acme/agent/actions/runs/${prRun.id}/artifacts/${html.id}`;
    expect(body).toContain(`**[Open the HTML report](${htmlUrl})**`);
    expect(body).toContain(
      `[loop-run-1](${htmlUrl}#trace=loop-run-1&file=traces%2Flooping-agent.jsonl&detector=TOOL_LOOP)`,
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
    // The check run names the rule that failed, as the comment's verdict does, and its numbers.
    expect(check.output!.title).toBe(
      'Failed: 1 new finding at high or worse on a task clean in every base run (rule regression.newSignals.minSeverity: high)',
    );
    expect(check.output!.summary).toMatch(/^\*\*Cost\*\* .* · \*\*Waste\*\* .* · \*\*Findings\*\* /);
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
    // Nothing regressed against base; head's own findings still show in the verdict (fail-on:
    // regression keeps them from failing the step, not from the comment).
    expect(ours[0]!.body).toMatch(
      /^### tracejury ❌ head's own gate failed: .*; no regression shown against base: /m,
    );
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

    const part2 = workspace(false);
    const run = await action({
      workspace: part2,
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
        report: downloaded(part2, reportRun.outputs['report-path']!, 'report.json'),
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
        timeoutMs: 300_000,
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
  }, 1_200_000);
  it("a Vitest run's HTML report and failing tests' traces are uploaded and linked from the comment, the summary and the check run; the link opens the report", async () => {
    const project = loopingSuite();
    const prRun = addRun(store, { branch: 'feature', event: 'pull_request', workflowFile: 'tracejury.yml' });
    const run = await action({
      workspace: project.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload(31),
      inputs: { command: suiteCommand(node), baseline: 'base-report.json' },
      env: { ...artifactEnv(gh, prRun), GITHUB_RUN_ID: String(prRun.id) },
      timeoutMs: 300_000,
    });
    expect(run.code, run.log).toBe(1);
    const uploaded = store.artifacts.filter((a) => a.runId === prRun.id);
    expect(uploaded.map((a) => a.name).sort()).toEqual([
      'tracejury-report-default.html',
      'tracejury-traces-default',
    ]);
    const html = uploaded.find((a) => a.name.endsWith('.html'))!;
    const traces = uploaded.find((a) => a.name === 'tracejury-traces-default')!;
    // The HTML unzipped, as the file itself; the saved traces zipped, their JSONL inside.
    expect(html.contentType).toBe('text/html');
    expect(html.bytes.equals(readFileSync(path.join(project.dir, '.tracejury/report.html')))).toBe(true);
    expect(traces.contentType).toBe('application/zip');
    const saved = JSON.parse(readFileSync(path.join(project.dir, '.tracejury/report.json'), 'utf8')).tests[0]
      .savedTraces[0].file as string;
    expect(saved).toMatch(/^\.tracejury\/traces\/.+\.jsonl$/);
    expect(traces.bytes.includes(Buffer.from(path.basename(saved)))).toBe(true);

    const htmlUrl = `https://github.com/acme/agent/actions/runs/${prRun.id}/artifacts/${html.id}`;
    const tracesUrl = `https://github.com/acme/agent/actions/runs/${prRun.id}/artifacts/${traces.id}`;
    const links = `**[Open the HTML report](${htmlUrl})**`;
    const zip = `[saved traces of failing tests](${tracesUrl}) (zip download, 1 file)`;
    const body = gh.comments.get(31)![0]!.body;
    const screen = body.slice(0, body.indexOf('<details>'));
    expect(screen).toContain(links);
    expect(screen).toContain(zip);
    // The new finding names its test, linked to its trace's timeline in the report.
    expect(screen).toMatch(
      new RegExp(
        `\\*\\*New at high or worse\\*\\*:\\n- \`TOOL_LOOP\` \\*\\*high\\*\\* \\[[^\\]]*checkout does not loop\\]\\(${htmlUrl}#trace=checkout-1&file=traces%2Fcheckout\\.json&detector=TOOL_LOOP\\)`,
      ),
    );
    expect(run.summary).toContain(links);
    expect(run.summary).toContain(zip);
    expect(gh.checkRuns.at(-1)!.output!.summary).toContain(links);
    expect(run.log).toContain(`uploaded tracejury-report-default.html: ${htmlUrl}`);

    // What the reviewer's click does: GitHub redirects to the file, which the browser shows.
    const opened = await fetch(htmlUrl.replace('https://github.com', gh.url) + '#trace=checkout-1');
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toBe('text/html');
    expect(opened.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(Buffer.from(await opened.arrayBuffer()).equals(html.bytes)).toBe(true);
    const download = await fetch(tracesUrl.replace('https://github.com', gh.url));
    expect(download.headers.get('content-disposition')).toMatch(/^attachment;/);
    expectTokenNowhere(gh, run);
  }, 600_000);

  it("the fork pattern: part 1 uploads its HTML report, part 2's comment links that run's artifact, not its own", async () => {
    const prNumber = 32;
    const project = loopingSuite();
    gh.pulls.set(prNumber, {
      number: prNumber,
      head: { sha: 'f1f1'.repeat(10), repo: { full_name: 'someone/agent-fork' } },
      base: { ref: 'main', repo: { full_name: 'acme/agent' } },
    });
    const part1Run = addRun(store, {
      fork: 'someone/agent-fork',
      branch: 'feature',
      workflowFile: 'tracejury.yml',
    });
    const part1 = await action({
      workspace: project.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload(prNumber),
      inputs: {
        command: suiteCommand(node),
        baseline: 'base-report.json',
        comment: 'off',
        'check-run': 'false',
        'fail-on': 'never',
      },
      env: { ...artifactEnv(gh, part1Run), GITHUB_RUN_ID: String(part1Run.id) },
      timeoutMs: 300_000,
    });
    expect(part1.code, part1.log).toBe(0);
    const html = store.artifacts.find(
      (a) => a.runId === part1Run.id && a.name === 'tracejury-report-default.html',
    )!;
    expect(html).toBeDefined();

    const commentRun = addRun(store, {
      branch: 'main',
      event: 'workflow_run',
      workflowFile: 'tracejury-comment.yml',
    });
    const before = store.artifacts.length;
    const part2Dir = workspace(false);
    const part2 = await action({
      workspace: part2Dir,
      eventName: 'workflow_run',
      payload: {
        action: 'completed',
        workflow_run: {
          id: part1Run.id,
          workflow_id: 77,
          head_sha: 'f1f1'.repeat(10),
          event: 'pull_request',
          pull_requests: [],
        },
        repository: { full_name: 'acme/agent', default_branch: 'main' },
      },
      inputs: {
        report: downloaded(part2Dir, path.join(project.dir, '.tracejury/report.json'), 'report.json'),
        baseline: downloaded(part2Dir, path.join(project.dir, 'base-report.json'), 'base-report.json'),
        'pr-number': String(prNumber),
        'fail-on': 'never',
      },
      env: {
        ...artifactEnv(gh, commentRun),
        GITHUB_RUN_ID: String(commentRun.id),
        GITHUB_WORKFLOW_REF: 'acme/agent/.github/workflows/tracejury-comment.yml@refs/heads/main',
      },
    });
    expect(part2.code, part2.log).toBe(0);
    // Nothing uploaded from the comment job: the fork's report is data there.
    expect(store.artifacts.length).toBe(before);
    const htmlUrl = `https://github.com/acme/agent/actions/runs/${part1Run.id}/artifacts/${html.id}`;
    const body = gh.comments.get(prNumber)![0]!.body;
    expect(body).toContain(`**[Open the HTML report](${htmlUrl})**`);
    expect(body).toContain(`](${htmlUrl}#trace=checkout-1&file=traces%2Fcheckout.json&detector=TOOL_LOOP)`);
    expect(body).not.toContain(`/actions/runs/${commentRun.id}/artifacts/`);
    expect(gh.checkRuns.at(-1)!.output!.summary).toContain(htmlUrl);
    expectTokenNowhere(gh, part2);
  }, 600_000);
});

/**
 * run(deps) on a pull request that someone else tried to steer, with the real Octokit against the
 * loopback fake GitHub. The baseline: a fork's pull_request run on its own branch called main,
 * newer than the repository's push run and holding a planted report that would pass the
 * regression gate, is passed over, so the gate fails as it should; a zip bomb and an oversized
 * report each end in a warning and a comment without deltas, never a crash. The comment: a
 * stranger's comment that begins with the marker is never edited; the Action's own is.
 */
import { getOctokit } from '@actions/github';
import * as fs from 'node:fs/promises';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commentMarker } from '../../src/action/comment.js';
import type { ActionContext, ActionDeps } from '../../src/action/deps.js';
import { run } from '../../src/action/run.js';
import type { Report } from '../../src/report/schema.js';
import { report, taskRun } from '../diff/reports.js';
import { fakeCore } from '../helpers/fakeCore.js';
import {
  GITHUB_TOKEN_IDENTITY,
  startFakeGitHub,
  type FakeComment,
  type FakeGitHub,
} from '../helpers/fakeGitHub.js';
import {
  addRun,
  artifactRoutes,
  createArtifactStore,
  resetArtifactStore,
  seedArtifact,
} from '../helpers/fakeGitHubArtifacts.js';
import { zipFile } from '../helpers/zipFile.js';

const PR = 7;
const FILE = 'tracejury-report-default.json';
const MARKER = commentMarker('default');

/**
 * main's report: 30 tasks, every one solved. The PR's report: 20 of them now fail, and one loops
 * (a new high finding).
 */
const base: Report = { ...taskRun(Array.from({ length: 30 }, () => [true])), generatedAt: 'base' };
const head: Report = {
  ...taskRun(
    Array.from({ length: 30 }, (_, i) => [i >= 20]),
    { flag: (i) => i === 1 },
  ),
  generatedAt: 'head',
};
/** What a fork would plant: the PR's own report, so nothing looks worse. */
const planted: Report = { ...head, generatedAt: 'planted' };

const context = {
  eventName: 'pull_request',
  payload: {
    pull_request: {
      number: PR,
      head: { sha: 'f'.repeat(40), ref: 'feature', repo: { full_name: 'acme/agent' } },
      base: { ref: 'main', repo: { full_name: 'acme/agent' } },
    },
    repository: { full_name: 'acme/agent', default_branch: 'main' },
  },
  sha: 'a'.repeat(40),
  ref: `refs/pull/${PR}/merge`,
  workflow: 'CI',
  runId: 9001,
  runNumber: 12,
  serverUrl: 'https://github.com',
  repo: { owner: 'acme', repo: 'agent' },
} as unknown as ActionContext;

const store = createArtifactStore();
let gh: FakeGitHub;
let workspace: string;

beforeAll(async () => {
  gh = await startFakeGitHub({ routes: artifactRoutes(store), maxMs: 60_000 });
});
afterAll(() => gh.close());
beforeEach(() => {
  resetArtifactStore(store);
  gh.comments.clear();
  gh.requests.length = 0;
  gh.forbidden.clear();
  gh.identity = GITHUB_TOKEN_IDENTITY;
  workspace = mkdtempSync(path.join(tmpdir(), 'tracejury-run-baseline-'));
  writeFileSync(path.join(workspace, 'head.json'), JSON.stringify(head));
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

async function runOnPullRequest(inputs: Record<string, string> = {}) {
  const { core, rec } = fakeCore({
    report: 'head.json',
    'github-token': 'ghs_run_baseline_test',
    'fail-on': 'regression',
    'check-run': 'false',
    ...inputs,
  });
  const deps: ActionDeps = {
    core,
    context,
    octokit: (token) => getOctokit(token, { baseUrl: gh.url }),
    artifacts: {
      // The HTML report the Action writes from the head report goes up (unlinked here: no id); a
      // baseline never does.
      uploadArtifact: async (name) => {
        if (name === 'tracejury-report-default.html') return {};
        throw new Error('a pull request run uploads no baseline');
      },
    },
    fs,
    exec: async () => {
      throw new Error('no command runs here');
    },
    env: {
      GITHUB_WORKSPACE: workspace,
      GITHUB_STEP_SUMMARY: path.join(workspace, 'summary.md'),
      GITHUB_WORKFLOW_REF: `acme/agent/.github/workflows/ci.yml@refs/pull/${PR}/merge`,
    },
    tempDir: path.join(workspace, 'runner-temp'),
  };
  const result = await run(deps);
  const comments = gh.comments.get(PR) ?? [];
  const ours = comments.filter((c) => c.user.login === gh.identity.login);
  expect(ours).toHaveLength(1);
  expect(ours[0]!.body.startsWith(MARKER)).toBe(true);
  return { result, rec, comment: ours[0]!.body, comments };
}

/** A comment written by someone other than the token: a stranger's, or the token's own. */
const comment = (id: number, body: string, user: FakeComment['user']): FakeComment => ({
  id,
  body,
  user,
  html_url: `https://github.com/acme/agent/pull/${PR}#issuecomment-${id}`,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
});

describe('run() and a baseline someone else chose', () => {
  it('compares with the repository’s own push run, not a fork’s newer planted report: the gate fails honestly', async () => {
    const push = addRun(store, { workflowFile: 'ci.yml' });
    seedArtifact(store, push, { name: FILE, bytes: JSON.stringify(base) });
    const fork = addRun(store, { workflowFile: 'ci.yml', fork: 'someone/agent-fork' });
    seedArtifact(store, fork, { name: FILE, bytes: JSON.stringify(planted) });

    const { result, rec, comment } = await runOnPullRequest();
    expect(result?.baselineSource).toBe(
      `the report of run #${push.run_number} on main (${push.head_sha.slice(0, 7)})`,
    );
    expect(rec.failed).toEqual([expect.stringMatching(/^tracejury: regression: /)]);
    expect(rec.outputs.passed).toBe('false');
    expect(rec.outputs['new-signals']).toBe('1');
    expect(comment).toContain('### tracejury ❌ success 100 % → 33 % (−67 pts');
    expect(comment).toContain(`Compared with the report of run #\u200b${push.run_number} on main`);
  });

  it('a zip bomb is a warning and a comment without deltas', async () => {
    const push = addRun(store, { workflowFile: 'ci.yml' });
    const bomb = zipFile([{ name: FILE, data: JSON.stringify(base), claimedSize: 0xffff_fff0 }]);
    seedArtifact(store, push, { name: FILE, bytes: bomb, contentType: 'application/zip' });

    const { result, rec, comment } = await runOnPullRequest();
    expect(rec.warnings).toEqual([
      `baseline: the report artifact of run #${push.run_number} on main (${push.head_sha.slice(0, 7)}): its ${FILE} unpacked is 4 GiB, over the 256 MiB a baseline may weigh; comparing with the fallback instead`,
    ]);
    expect(result?.diffPath).toBeUndefined();
    expect(rec.outputs['new-signals']).toBe('');
    expect(rec.failed).toEqual([]);
    expect(comment).toContain('> No baseline to compare with: none: the report of run');
  });

  it('a report over 256 MiB is a warning and a comment without deltas, with nothing downloaded', async () => {
    const push = addRun(store, { workflowFile: 'ci.yml' });
    // The listing says 505 MiB (the size that once ended the step with `Invalid string length`).
    seedArtifact(store, push, { name: FILE, bytes: JSON.stringify(base), sizeInBytes: 505 * 1024 * 1024 });

    const { result, rec, comment } = await runOnPullRequest();
    expect(rec.warnings).toEqual([
      expect.stringContaining(': it is 505 MiB, over the 256 MiB a baseline may weigh;'),
    ]);
    expect(gh.requests.some((r) => r.url.pathname.endsWith('/zip'))).toBe(false);
    expect(result?.diffPath).toBeUndefined();
    expect(rec.failed).toEqual([]);
    expect(comment).toContain('> No baseline to compare with: none: the report of run');
  });
});

describe('run() and a comment someone else wrote', () => {
  /** A fake pass, posted by a stranger under the marker, before the Action's first run. */
  const fakePass = `${MARKER}\n### tracejury ✅ no regression`;
  const stranger = { login: 'mallory', type: 'User' };
  const patched = () => gh.requests.filter((r) => r.method === 'PATCH').map((r) => r.url.pathname);

  it('a stranger’s marker comment is left alone: the first run creates its own, the next updates that one', async () => {
    gh.comments.set(PR, [comment(1, fakePass, stranger)]);
    const first = await runOnPullRequest({ baseline: 'none', 'fail-on': 'never' });
    expect(first.comments.map((c) => c.user.login)).toEqual(['mallory', 'github-actions[bot]']);
    expect(first.rec.info).toContain(
      'tracejury: the comment to update is the one github-actions[bot] wrote (GraphQL viewer)',
    );
    const ours = first.comments[1]!;

    gh.requests.length = 0;
    const second = await runOnPullRequest({ baseline: 'none', 'fail-on': 'never' });
    expect(second.comments.map((c) => c.id)).toEqual([1, ours.id]);
    expect(patched()).toEqual([`/repos/acme/agent/issues/comments/${ours.id}`]);
    expect(second.comments[0]!.body).toBe(fakePass);
    // The identity is asked for once per run.
    expect(gh.requests.filter((r) => r.url.pathname === '/graphql')).toHaveLength(1);
  });

  it('with a personal access token, the comment to update is that user’s, found by GET /user', async () => {
    gh.identity = { login: 'maintainer', type: 'User', kind: 'user' };
    gh.forbidden.add('graphql');
    gh.comments.set(PR, [
      comment(1, fakePass, stranger),
      comment(2, `${MARKER}\nthe maintainer's last report`, { login: 'maintainer', type: 'User' }),
    ]);
    const { rec, comments } = await runOnPullRequest({ baseline: 'none', 'fail-on': 'never' });
    expect(rec.info).toContain('tracejury: the comment to update is the one maintainer wrote (GET /user)');
    expect(comments.map((c) => c.id)).toEqual([1, 2]);
    expect(comments[0]!.body).toBe(fakePass);
    expect(comments[1]!.body).toContain('### tracejury');
    expect(patched()).toEqual(['/repos/acme/agent/issues/comments/2']);
  });
});

describe('run() on a Vitest run whose tests failed', () => {
  /** A Vitest report of two tests, one attempt each: both passed, or both failed. */
  const testRun = (passed: boolean): Report => {
    const tests = ['evals > books a flight', 'evals > cancels'].map((name) => ({
      name,
      file: 'evals.test.ts',
      state: passed ? ('passed' as const) : ('failed' as const),
      attempts: 1,
      passedAttempts: passed ? 1 : 0,
      traces: [],
    }));
    const r = report({ tests });
    r.testRun = {
      tests: 2,
      passed: passed ? 2 : 0,
      failed: passed ? 0 : 2,
      skipped: 0,
      repeated: 0,
      passHatK: [],
      passAtK: [],
    };
    if (!passed) r.gate = { passed: false, reasons: ['2 tests of 2 failed (first: evals > books a flight)'] };
    return r;
  };

  it('opens its comment with ❌ and the failed tests, though two tests a side cannot show a regression', async () => {
    const push = addRun(store, { workflowFile: 'ci.yml' });
    seedArtifact(store, push, { name: FILE, bytes: JSON.stringify(testRun(true)) });
    writeFileSync(path.join(workspace, 'head.json'), JSON.stringify(testRun(false)));
    const { rec, comment } = await runOnPullRequest({ 'fail-on': 'any' });
    const first = comment.split('\n')[1];
    expect(first).toBe(
      '### tracejury ❌ 2 of 2 tests failed in head; no regression shown against base: success 100 % → 0 % (−100 pts), 2 tests paired; within noise (at 2 tests a side no drop in success can be told from noise)',
    );
    expect(comment).not.toContain('✅ no regression');
    expect(rec.outputs.passed).toBe('false');
  });
});

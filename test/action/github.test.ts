/**
 * The Action's GitHub side in-process, with the real Octokit against the loopback fake: the sticky
 * comment is found past the first pages and paging stops once it is, only among the comments the
 * token's identity wrote (a stranger's comment that starts with the marker is never edited), `new`
 * adds one each run, the identity is learnt from GraphQL, `GET /user` or assumed, check-run
 * annotations go 50 to a request; and the event payloads of pull_request, push and workflow_run
 * resolve to the PR, base branch and head commit the Action works with.
 */
import { getOctokit } from '@actions/github';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Annotation } from '../../src/action/annotations.js';
import { writeCheckRun } from '../../src/action/checkRun.js';
import { commentMarker, findStickyComment, writeComment } from '../../src/action/comment.js';
import type { ActionContext, Octokit } from '../../src/action/deps.js';
import { resolveEvent, workflowFileOf } from '../../src/action/event.js';
import { GITHUB_ACTIONS_BOT, resolveTokenIdentity } from '../../src/action/tokenIdentity.js';
import {
  GITHUB_TOKEN_IDENTITY,
  startFakeGitHub,
  type FakeComment,
  type FakeGitHub,
} from '../helpers/fakeGitHub.js';

let gh: FakeGitHub;
let octokit: Octokit;
const target = { owner: 'acme', repo: 'agent', issueNumber: 5 };
const marker = commentMarker('default');

const BOT = { login: GITHUB_ACTIONS_BOT, type: 'Bot' };
const STRANGER = { login: 'someone', type: 'User' };

const comment = (id: number, body: string, user = STRANGER): FakeComment => ({
  id,
  body,
  user,
  html_url: `https://github.com/acme/agent/pull/5#issuecomment-${id}`,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
});

beforeAll(async () => {
  gh = await startFakeGitHub({ maxMs: 60_000 });
  octokit = getOctokit('ghs_test', { baseUrl: gh.url });
});
afterAll(() => gh.close());
beforeEach(() => {
  gh.comments.clear();
  gh.checkRuns.length = 0;
  gh.requests.length = 0;
  gh.forbidden.clear();
  gh.identity = GITHUB_TOKEN_IDENTITY;
});

const update = { marker, mode: 'update', author: GITHUB_ACTIONS_BOT } as const;
const patched = () => gh.requests.filter((r) => r.method === 'PATCH').map((r) => r.url.pathname);

describe('the sticky comment', () => {
  it('is found on the second page of 250 comments, and paging stops there', async () => {
    gh.comments.set(
      5,
      Array.from({ length: 250 }, (_, i) =>
        comment(i + 1, i === 129 ? `${marker}\nold report` : `note ${i}`, i === 129 ? BOT : STRANGER),
      ),
    );
    const found = await findStickyComment(octokit, target, marker, GITHUB_ACTIONS_BOT);
    expect(found).toEqual({ id: 130, body: `${marker}\nold report` });
    expect(gh.requests.map((r) => r.url.searchParams.get('page') ?? '1')).toEqual(['1', '2']);
  });

  it('update mode edits the marked comment; a comment that only mentions the marker is left alone', async () => {
    gh.comments.set(5, [comment(1, `I saw ${marker} somewhere`), comment(2, `${marker}\nold`, BOT)]);
    const written = await writeComment(octokit, target, `${marker}\nnew`, update);
    expect(written).toMatchObject({ id: 2, action: 'updated' });
    expect(gh.comments.get(5)!.map((c) => c.body)).toEqual([`I saw ${marker} somewhere`, `${marker}\nnew`]);
  });

  it('update mode creates the comment when there is none; new mode adds one every run', async () => {
    const first = await writeComment(octokit, target, `${marker}\none`, update);
    expect(first.action).toBe('created');
    const second = await writeComment(octokit, target, `${marker}\ntwo`, { mode: 'new' });
    expect(second.action).toBe('created');
    expect(gh.comments.get(5)!).toHaveLength(2);
    // new mode never lists the comments: it does not look for the old one.
    expect(gh.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
  });
});

describe('whose comment is ours', () => {
  it('a stranger’s comment that starts with the marker is left alone; our own after it is updated', async () => {
    const fake = `${marker}\n### tracejury ✅ no regression`;
    gh.comments.set(5, [comment(1, fake), comment(2, `${marker}\nold`, BOT)]);
    const written = await writeComment(octokit, target, `${marker}\nnew`, update);
    expect(written).toMatchObject({ id: 2, action: 'updated' });
    expect(gh.comments.get(5)!.map((c) => c.body)).toEqual([fake, `${marker}\nnew`]);
    expect(patched()).toEqual(['/repos/acme/agent/issues/comments/2']);
  });

  it('when only a stranger’s marker comment exists, a new comment is created beside it', async () => {
    const fake = `${marker}\n### tracejury ✅ no regression`;
    gh.comments.set(5, [comment(1, fake)]);
    const written = await writeComment(octokit, target, `${marker}\nnew`, update);
    expect(written.action).toBe('created');
    expect(gh.comments.get(5)!.map((c) => [c.body, c.user.login])).toEqual([
      [fake, 'someone'],
      [`${marker}\nnew`, GITHUB_ACTIONS_BOT],
    ]);
    expect(patched()).toEqual([]);
  });

  it('the identity of GITHUB_TOKEN or a GitHub App comes from GraphQL viewer, without GET /user', async () => {
    expect(await resolveTokenIdentity(octokit, () => {})).toEqual({
      login: GITHUB_ACTIONS_BOT,
      from: 'GraphQL viewer',
    });
    gh.identity = { login: 'acme-evals[bot]', type: 'Bot', kind: 'installation' };
    expect((await resolveTokenIdentity(octokit, () => {})).login).toBe('acme-evals[bot]');
    expect(gh.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
      'POST /graphql',
      'POST /graphql',
    ]);
  });

  it('a personal access token refused GraphQL is found by GET /user; with neither, github-actions[bot] is assumed', async () => {
    gh.forbidden.add('graphql');
    gh.identity = { login: 'maintainer', type: 'User', kind: 'user' };
    const debug: string[] = [];
    expect(await resolveTokenIdentity(octokit, (l) => debug.push(l))).toEqual({
      login: 'maintainer',
      from: 'GET /user',
    });
    expect(debug).toEqual([expect.stringMatching(/^token identity: GraphQL viewer refused: /)]);

    gh.identity = { login: 'acme-evals[bot]', type: 'Bot', kind: 'installation' };
    expect(await resolveTokenIdentity(octokit, () => {})).toEqual({
      login: GITHUB_ACTIONS_BOT,
      from: 'the default token’s identity (assumed)',
    });
  });
});

describe('the check run', () => {
  it('sends 120 annotations as 50 with the create, then 50 and 20 in updates', async () => {
    const annotations: Annotation[] = Array.from({ length: 120 }, (_, i) => ({
      path: `traces/t${i}.jsonl`,
      start_line: i + 1,
      end_line: i + 1,
      annotation_level: 'warning',
      title: `finding ${i}`,
      message: 'm',
    }));
    const result = await writeCheckRun(octokit, {
      owner: 'acme',
      repo: 'agent',
      name: 'tracejury',
      headSha: 'abc',
      conclusion: 'failure',
      title: 'Failed',
      summary: 'x'.repeat(70_000),
      annotations,
    });
    expect(result.requests).toBe(3);
    const run = gh.checkRuns[0]!;
    expect(run.batches).toEqual([50, 50, 20]);
    expect(run.annotations.map((a) => a.start_line)).toEqual(annotations.map((a) => a.start_line));
    expect(run).toMatchObject({ status: 'completed', conclusion: 'failure', head_sha: 'abc' });
    expect(run.output!.summary!.length).toBe(65_535);
  });
});

describe('the event', () => {
  const context = (
    eventName: string,
    payload: Record<string, unknown>,
    ref = 'refs/heads/main',
  ): ActionContext =>
    ({
      eventName,
      payload,
      sha: 'merge-sha',
      ref,
      workflow: 'tracejury',
      runId: 9,
      runNumber: 1,
      serverUrl: 'https://github.com',
      repo: { owner: 'acme', repo: 'agent' },
    }) as ActionContext;
  const env = { GITHUB_WORKFLOW_REF: 'acme/agent/.github/workflows/evals.yml@refs/pull/3/merge' };
  const repository = { default_branch: 'main' };

  it('pull_request: the PR, its base branch, its head commit (not the merge commit), the workflow file', () => {
    const event = resolveEvent(
      context('pull_request', {
        pull_request: {
          number: 3,
          base: { ref: 'release', repo: { full_name: 'acme/agent' } },
          head: { sha: 'head-sha', repo: { full_name: 'fork/agent' } },
        },
        repository,
      }),
      env,
      undefined,
    );
    expect(event).toMatchObject({
      pr: { number: 3, baseRef: 'release', headSha: 'head-sha', fromFork: true },
      baseBranch: 'release',
      headSha: 'head-sha',
      pushToDefault: false,
      workflowId: 'evals.yml',
      runUrl: 'https://github.com/acme/agent/actions/runs/9',
    });
  });

  it('push: no PR; to the default branch it makes the next baseline, elsewhere it compares with it', () => {
    const toMain = resolveEvent(context('push', { repository }), env, undefined);
    expect(toMain).toMatchObject({
      pr: undefined,
      baseBranch: 'main',
      pushToDefault: true,
      headSha: 'merge-sha',
    });
    const toFeature = resolveEvent(context('push', { repository }, 'refs/heads/feature'), env, undefined);
    expect(toFeature).toMatchObject({ pr: undefined, baseBranch: 'main', pushToDefault: false });
  });

  it("workflow_run: the triggering workflow's id and head commit; pr-number names the PR", () => {
    const payload = {
      workflow_run: { workflow_id: 77, head_sha: 'pr-head', pull_requests: [] },
      repository,
    };
    const event = resolveEvent(context('workflow_run', payload), env, 12);
    expect(event).toMatchObject({
      pr: { number: 12, baseRef: undefined },
      headSha: 'pr-head',
      workflowId: 77,
    });
    const sameRepo = resolveEvent(
      context('workflow_run', {
        ...payload,
        workflow_run: {
          ...payload.workflow_run,
          pull_requests: [{ number: 4, base: { ref: 'main' }, head: { sha: 'pr-head' } }],
        },
      }),
      env,
      undefined,
    );
    expect(sameRepo.pr).toMatchObject({ number: 4, baseRef: 'main' });
  });

  it('workflowFileOf reads the file from GITHUB_WORKFLOW_REF', () => {
    expect(workflowFileOf('acme/agent/.github/workflows/ci.yml@refs/heads/main')).toBe('ci.yml');
    expect(workflowFileOf(undefined)).toBeUndefined();
    expect(workflowFileOf('')).toBeUndefined();
  });
});

/**
 * run(deps) on a pull request, in-process, with the real Octokit against the loopback fake GitHub,
 * a real file system and an artifact store that records what each upload would send (the files'
 * bytes, read as @actions/artifact reads them): for the tests of what a pull request's checkout,
 * config and command can and cannot make the Action do.
 */
import { getOctokit } from '@actions/github';
import { exec as realExec } from '@actions/exec';
import * as fs from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ActionContext, ActionDeps, Exec } from '../../src/action/deps.js';
import { run } from '../../src/action/run.js';
import { fakeCore } from './fakeCore.js';
import type { FakeGitHub } from './fakeGitHub.js';

export const PR = 7;
export const BASE_SHA = 'b'.repeat(40);

/** A pull_request event; `fork` names the head repository when it is not this one. */
export function pullRequestContext(fork?: string): ActionContext {
  return {
    eventName: 'pull_request',
    payload: {
      pull_request: {
        number: PR,
        head: { sha: 'f'.repeat(40), ref: 'feature', repo: { full_name: fork ?? 'acme/agent' } },
        base: { ref: 'main', sha: BASE_SHA, repo: { full_name: 'acme/agent' } },
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
}

export interface Upload {
  name: string;
  /** Each file's path relative to the upload's root, and its bytes. */
  files: { name: string; text: string }[];
}

export interface PullRequestRunOptions {
  gh: FakeGitHub;
  workspace: string;
  inputs: Record<string, string>;
  context?: ActionContext;
  /** The step's environment (GITHUB_WORKSPACE and GITHUB_STEP_SUMMARY are added). */
  env?: Record<string, string>;
  /** Default: @actions/exec's, so a `command` really runs. */
  exec?: Exec;
}

export async function runOnPullRequest(o: PullRequestRunOptions) {
  const { core, rec } = fakeCore({
    'github-token': 'ghs_pull_request_token_0123456789',
    baseline: 'none',
    'check-run': 'false',
    'fail-on': 'never',
    ...o.inputs,
  });
  const uploads: Upload[] = [];
  const deps: ActionDeps = {
    core,
    context: o.context ?? pullRequestContext(),
    octokit: (token) => getOctokit(token, { baseUrl: o.gh.url }),
    artifacts: {
      uploadArtifact: async (name, files, root) => {
        uploads.push({
          name,
          files: files.map((f) => ({ name: path.relative(root, f), text: readFileSync(f, 'utf8') })),
        });
        return { id: uploads.length, size: 1 };
      },
    },
    fs,
    exec: o.exec ?? ((cmd, args, options) => realExec(cmd, args, { ...options, silent: true })),
    env: {
      ...o.env,
      GITHUB_WORKSPACE: o.workspace,
      GITHUB_STEP_SUMMARY: path.join(o.workspace, '..', 'summary.md'),
    },
    tempDir: path.join(o.workspace, '..', 'runner-temp'),
  };
  const result = await run(deps);
  const comment = (o.gh.comments.get(PR) ?? []).at(-1)?.body ?? '';
  return { result, rec, uploads, comment };
}

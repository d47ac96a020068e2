/**
 * What `run()` needs from the outside world, passed in so that tests hand it fakes (or real
 * clients pointed at a loopback server) without module mocking. `index.ts` builds the real ones.
 */
import type * as coreModule from '@actions/core';
import type { ArtifactClient } from '@actions/artifact';
import type { ExecOptions } from '@actions/exec';
import type { context, getOctokit } from '@actions/github';
import type * as fsPromises from 'node:fs/promises';

/** The parts of @actions/core the Action uses (the summary only as far as writing raw markdown). */
export type ActionCore = Pick<
  typeof coreModule,
  | 'getInput'
  | 'setOutput'
  | 'setFailed'
  | 'setSecret'
  | 'info'
  | 'warning'
  | 'error'
  | 'notice'
  | 'debug'
  | 'startGroup'
  | 'endGroup'
> & {
  summary: {
    addRaw(text: string, addEOL?: boolean): unknown;
    write(options?: { overwrite?: boolean }): Promise<unknown>;
  };
};

export type Octokit = ReturnType<typeof getOctokit>;

/** Uploads only (the baseline, the HTML report, saved traces): a baseline is downloaded within a size limit by baselineArtifact.ts. */
export type ArtifactStore = Pick<ArtifactClient, 'uploadArtifact'>;

export type ActionFs = Pick<
  typeof fsPromises,
  'readFile' | 'writeFile' | 'mkdir' | 'mkdtemp' | 'access' | 'readdir' | 'stat' | 'lstat' | 'copyFile' | 'rm'
>;

/** @actions/exec's `exec`: resolves to the exit code (with ignoreReturnCode set). */
export type Exec = (commandLine: string, args?: string[], options?: ExecOptions) => Promise<number>;

/** The event the workflow runs for: @actions/github's context, read from GITHUB_* and the event file. */
export type ActionContext = Pick<
  typeof context,
  'payload' | 'eventName' | 'sha' | 'ref' | 'workflow' | 'runId' | 'runNumber' | 'serverUrl' | 'repo'
>;

export interface ActionDeps {
  core: ActionCore;
  context: ActionContext;
  /** An Octokit for the token; null when there is no token (everything GitHub-side is skipped). */
  octokit: (token: string) => Octokit;
  artifacts: ArtifactStore;
  fs: ActionFs;
  exec: Exec;
  env: NodeJS.ProcessEnv;
  /** The runner's temporary directory (RUNNER_TEMP), where downloads and scratch files go. */
  tempDir: string;
}

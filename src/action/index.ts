/** The Action's entry point (action.yml `main`, bundled to dist/index.js): real clients into run(). */
import * as core from '@actions/core';
import { exec } from '@actions/exec';
import { context, getOctokit } from '@actions/github';
import * as fs from 'node:fs/promises';
import os from 'node:os';
import { boundHeapGrowth } from '../util/heapGrowth.js';
import type { ArtifactStore } from './deps.js';
import { run } from './run.js';

// As the CLI does: a large input's peak memory follows its live data (util/heapGrowth.ts).
boundHeapGrowth();

// The artifact client (with the Azure storage SDK) is a third of the bundle and only a baseline
// upload needs it: loaded on first use, so the step starts in less time.
let artifactClient: Promise<ArtifactStore> | undefined;
const loadArtifactClient = () =>
  (artifactClient ??= import('@actions/artifact').then(
    ({ DefaultArtifactClient }) => new DefaultArtifactClient(),
  ));
const artifacts: ArtifactStore = {
  uploadArtifact: async (...args) => (await loadArtifactClient()).uploadArtifact(...args),
};

await run({
  core,
  context,
  octokit: (token) => getOctokit(token),
  artifacts,
  fs,
  exec,
  env: process.env,
  tempDir: process.env.RUNNER_TEMP || os.tmpdir(),
});

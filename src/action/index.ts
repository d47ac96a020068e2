/** The Action's entry point (action.yml `main`, bundled to dist/index.js): real clients into run(). */
import * as core from '@actions/core';
import { DefaultArtifactClient } from '@actions/artifact';
import { exec } from '@actions/exec';
import { context, getOctokit } from '@actions/github';
import * as fs from 'node:fs/promises';
import os from 'node:os';
import { run } from './run.js';

await run({
  core,
  context,
  octokit: (token) => getOctokit(token),
  artifacts: new DefaultArtifactClient(),
  fs,
  exec,
  env: process.env,
  tempDir: process.env.RUNNER_TEMP || os.tmpdir(),
});

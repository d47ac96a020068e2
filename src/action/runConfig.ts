/**
 * The config a run uses. On a push, a schedule or the fork pattern's comment job the checkout is
 * the repository's own, and its tracejury.yml is the config. On a pull request the checkout is the
 * PR's: its tracejury.yml is narrowed to the base branch's (config/pullRequestConfig.ts) wherever
 * it chooses an endpoint, a key or the cassette mode, so no PR sends the job's credentials, traces
 * or review list anywhere the base branch does not.
 *
 * The base branch's copy is read through the contents API at the base commit the event names
 * (`pull_request.base.sha`), with the job's token (`contents: read`, which a fork's read-only token
 * has too): the checkout of a pull request is its merge commit, fetched one commit deep, so
 * `git show <base>:tracejury.yml` would not find the base commit. Unreadable (no token, no
 * permission, a file the base branch does not have or cannot parse) allows nothing: the PR's
 * endpoints are all dropped and the cassette replays only, each with a warning.
 *
 * For `command:` the suite reads tracejury.yml itself; what the Action can still hold it to is the
 * cassette mode, through TRACEJURY_CASSETTE (which wins over the config in the Vitest plugin): the
 * narrowed mode, or `replay` when the PR changed a judge (a miss must not call the PR's endpoint).
 */
import path from 'node:path';
import { CONFIG_FILE_NAMES, ConfigError, loadConfig, parseConfig, type Config } from '../config/config.js';
import { narrowToBase } from '../config/pullRequestConfig.js';
import { CASSETTE_ENV } from '../judge/cassette.js';
import { UsageError } from '../trace/paths.js';
import type { Octokit } from './deps.js';
import type { RunEvent } from './event.js';
import { httpFailureOf } from './githubError.js';
import { ActionInputError } from './inputError.js';

export interface RunConfig {
  config: Config;
  /** Variables the eval command's environment gets on top of a `run:` step's (the cassette mode). */
  commandVariables: Record<string, string>;
  /** For the log: which config, and what was narrowed. */
  warnings: string[];
  info: string[];
}

/** Whether the checkout is a pull request's code (its tracejury.yml is the PR author's). */
export function runsPullRequestCode(event: RunEvent): boolean {
  return event.name === 'pull_request' || event.name === 'pull_request_target';
}

/** The PR's config as the checkout has it; a bad one is the workflow's input error. */
function checkoutConfig(configFile: string | undefined, workDir: string): Config {
  try {
    return loadConfig(configFile, workDir);
  } catch (err) {
    if (err instanceof UsageError) throw new ActionInputError(`config: ${err.message}`);
    throw err;
  }
}

/** The paths in the repository the config may be at: the `config` input's, or each default name. */
function repoPaths(configFile: string | undefined, workDir: string, workspace: string): string[] {
  const files = configFile ? [configFile] : CONFIG_FILE_NAMES.map((n) => path.join(workDir, n));
  return files.map((f) => path.relative(workspace, f).split(path.sep).join('/'));
}

type BaseConfig = { config: Config | undefined; from: string } | { unreadable: string };

/** The base branch's tracejury.yml at `ref`, or none (the first of `paths` it has). */
async function baseBranchConfig(
  octokit: Octokit | undefined,
  repo: { owner: string; repo: string },
  ref: string | undefined,
  paths: string[],
): Promise<BaseConfig> {
  if (!octokit) return { unreadable: 'no github-token to read it with' };
  if (!ref) return { unreadable: 'the event names no base branch' };
  for (const file of paths) {
    let text: string;
    try {
      const { data } = await octokit.rest.repos.getContent({ ...repo, path: file, ref });
      if (Array.isArray(data) || data.type !== 'file' || typeof data.content !== 'string')
        return { unreadable: `${file} there is not a file` };
      text = Buffer.from(data.content, 'base64').toString('utf8');
    } catch (err) {
      const failure = httpFailureOf(err);
      if (failure?.status === 404) continue;
      if (failure)
        return {
          unreadable: `GitHub answered ${failure.status} for ${file} (the job needs \`contents: read\`)`,
        };
      throw err;
    }
    const from = `${file} at ${ref.slice(0, 7)}`;
    try {
      return { config: parseConfig(text, from), from };
    } catch (err) {
      if (err instanceof ConfigError)
        return { unreadable: `it does not parse: ${err.message.split('\n')[0]}` };
      throw err;
    }
  }
  return { config: undefined, from: 'none' };
}

export async function resolveRunConfig(args: {
  octokit: Octokit | undefined;
  repo: { owner: string; repo: string };
  event: RunEvent;
  configFile: string | undefined;
  workDir: string;
  workspace: string;
  /** The step's environment: a TRACEJURY_CASSETTE the workflow set is the workflow's choice. */
  env: NodeJS.ProcessEnv;
}): Promise<RunConfig> {
  const head = checkoutConfig(args.configFile, args.workDir);
  if (!runsPullRequestCode(args.event)) return { config: head, commandVariables: {}, warnings: [], info: [] };

  const pr = args.event.pr;
  const base = await baseBranchConfig(
    args.octokit,
    args.repo,
    pr?.baseSha ?? pr?.baseRef,
    repoPaths(args.configFile, args.workDir, args.workspace),
  );
  const warnings: string[] = [];
  const info: string[] = [];
  if ('unreadable' in base)
    warnings.push(
      `tracejury: cannot read the base branch's tracejury.yml (${base.unreadable}): this pull request's judges, embeddings endpoint and review webhook are not used, and the cassette only replays`,
    );
  else
    info.push(
      `tracejury: endpoints, keys and the cassette mode are held to the base branch's config (${base.from})`,
    );
  const narrowed = narrowToBase(head, 'unreadable' in base ? undefined : base.config);
  warnings.push(...narrowed.notes.map((n) => `tracejury: ${n}`));

  const commandVariables: Record<string, string> = {};
  const tribunal = narrowed.config.tribunal;
  if (tribunal && !args.env[CASSETTE_ENV])
    commandVariables[CASSETTE_ENV] = narrowed.judgesDropped ? 'replay' : tribunal.cassette.mode;
  return { config: narrowed.config, commandVariables, warnings, info };
}

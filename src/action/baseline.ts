/**
 * The base side of the pull request's comparison: which report the head report is diffed against.
 *
 * `auto` looks for the head report that the latest successful run of this workflow on the base
 * branch uploaded as an artifact, then for a committed `.tracejury/baseline-report.json`, and says
 * plainly when there is neither (a first run: a report without deltas). Only this repository's
 * own runs count (baselineRuns.ts: never a fork's pull-request run on a branch called main), and a
 * baseline weighs at most MAX_BASELINE_BYTES (baselineArtifact.ts). Nothing GitHub-side ever fails
 * the step here — a read-only token, an expired or oversized artifact costs the deltas, not the
 * check — but a `baseline:` path the user named that cannot be used is an input error.
 *
 * Artifact names: the report is uploaded raw (skipArchive) so that it can be downloaded without
 * unzipping, and @actions/artifact v6 then names the artifact after the uploaded file's basename,
 * whatever name is passed. uploadBaseline therefore uploads a copy called `<artifactName>.json`, and
 * the runs API lists the artifact under that name, which is the name findBaseline asks for.
 */
import path from 'node:path';
import { parseReportJson } from '../report/parseReport.js';
import type { Report } from '../report/schema.js';
import { formatBytes } from '../util/bytes.js';
import { fsErrorReason, isFsError } from '../util/fsError.js';
import { plural } from '../util/thousands.js';
import { MAX_BASELINE_BYTES, readReportArtifact } from './baselineArtifact.js';
import { baselineEvents, listBaselineRuns, whyNotBaseline, type WorkflowRun } from './baselineRuns.js';
import type { ActionFs, ArtifactStore, Octokit } from './deps.js';
import { httpFailureOf } from './githubError.js';
import { readReportInput } from './reportInput.js';

export { MAX_BASELINE_BYTES } from './baselineArtifact.js';

export const baselineArtifactName = (commentId: string) => `tracejury-report-${commentId}`;

/** The name the artifact really has on GitHub (see the note at the top). */
export const baselineArtifactFile = (artifactName: string) => `${artifactName}.json`;

export const COMMITTED_BASELINE = '.tracejury/baseline-report.json';

/** How many successful base-branch runs to look through before giving up on the artifact. */
export const DEFAULT_MAX_RUNS = 30;

const PER_PAGE = 100;

export type BaselineInput = { kind: 'auto' } | { kind: 'none' } | { kind: 'file'; path: string };

export interface BaselineFound {
  report: Report | undefined;
  /**
   * One line for the log and the comment, e.g. "the report of run #41 on main (abc1234)",
   * "committed .tracejury/baseline-report.json", "none: no successful run of this workflow on main
   * has a tracejury-report-default.json artifact yet, … (first run: a report without deltas)".
   */
  source: string;
  /** The run the report came from, for a link in the comment. */
  url?: string;
  warnings: string[];
}

export interface FindBaselineArgs {
  input: BaselineInput;
  octokit: Octokit | undefined;
  fs: ActionFs;
  repo: { owner: string; repo: string };
  baseBranch: string | undefined;
  /** The repository's default branch: there, scheduled and hand-started runs are baselines too. */
  defaultBranch?: string | undefined;
  /** The workflow's numeric id or its file name (`ci.yml`), as the runs API accepts either. */
  workflowId: number | string | undefined;
  /** baselineArtifactName(comment-id), without the `.json` GitHub adds (see the note at the top). */
  artifactName: string;
  workDir: string;
  tempDir: string;
  log: (line: string) => void;
  /** Successful runs to look through for the artifact (default 30). */
  maxRuns?: number;
  /** The most a baseline may weigh (MAX_BASELINE_BYTES; tests lower it). */
  maxBytes?: number;
}

export async function findBaseline(args: FindBaselineArgs): Promise<BaselineFound> {
  const { input } = args;
  const maxBytes = args.maxBytes ?? MAX_BASELINE_BYTES;
  if (input.kind === 'none')
    return { report: undefined, source: 'the workflow set `baseline: none`', warnings: [] };
  if (input.kind === 'file') {
    const report = await readReportInput(args.fs, args.workDir, 'baseline', input.path, { maxBytes });
    return { report, source: input.path, warnings: [] };
  }

  const warnings: string[] = [];
  const fromRuns = await fromBaseBranchRuns(args, maxBytes, warnings);
  if (fromRuns.found) return { ...fromRuns.found, warnings };

  const committed = await readCommitted(args, maxBytes, warnings);
  if (committed) return { report: committed, source: `committed ${COMMITTED_BASELINE}`, warnings };
  return {
    report: undefined,
    source: `none: ${fromRuns.why}, and there is no committed ${COMMITTED_BASELINE} (first run: a report without deltas)`,
    warnings,
  };
}

/** The committed fallback: absent is normal; present but unusable is a warning, not a failure. */
async function readCommitted(
  args: FindBaselineArgs,
  maxBytes: number,
  warnings: string[],
): Promise<Report | undefined> {
  const file = path.resolve(args.workDir, COMMITTED_BASELINE);
  let text: string;
  try {
    const { size } = await args.fs.stat(file);
    if (size > maxBytes) {
      warnings.push(
        `baseline: ${COMMITTED_BASELINE} is ${formatBytes(size)}, over the ${formatBytes(maxBytes)} a baseline may weigh; comparing with no baseline`,
      );
      return undefined;
    }
    text = await args.fs.readFile(file, 'utf8');
  } catch (err) {
    if (!isFsError(err)) throw err;
    if (err.code !== 'ENOENT')
      warnings.push(`baseline: ${COMMITTED_BASELINE}: cannot read the report: ${fsErrorReason(err)}`);
    return undefined;
  }
  const parsed = parseReportJson(text);
  if (parsed.ok) return parsed.report;
  warnings.push(
    `baseline: ${COMMITTED_BASELINE}: ${parsed.problem}; commit a report written by this version, or remove it`,
  );
  return undefined;
}

interface RunsOutcome {
  found?: Omit<BaselineFound, 'warnings'>;
  /** Why there is no report from a run, for the `none:` source line. */
  why: string;
}

async function fromBaseBranchRuns(
  args: FindBaselineArgs,
  maxBytes: number,
  warnings: string[],
): Promise<RunsOutcome> {
  const { octokit, baseBranch, workflowId, repo } = args;
  if (!octokit) return { why: 'no github-token to look for the base branch’s report with' };
  if (!baseBranch) return { why: 'no base branch to compare with' };
  if (workflowId === undefined || workflowId === '')
    return { why: 'the workflow is unknown (GITHUB_WORKFLOW_REF is not set)' };

  const name = baselineArtifactFile(args.artifactName);
  const events = baselineEvents(baseBranch, args.defaultBranch);
  const rule = { repository: `${repo.owner}/${repo.repo}`, baseBranch, events };
  let looked = 0;
  let expired = 0;
  let ended: boolean;
  try {
    const listed = await listBaselineRuns({
      octokit,
      repo,
      workflowId,
      baseBranch,
      events,
      limit: Math.max(1, args.maxRuns ?? DEFAULT_MAX_RUNS),
    });
    ended = listed.ended;
    for (const run of listed.runs) {
      const why = whyNotBaseline(run, rule);
      if (why) {
        args.log(`baseline: passed over run #${run.run_number} (${run.html_url}): ${why}`);
        continue;
      }
      looked++;
      const { data } = await octokit.rest.actions.listWorkflowRunArtifacts({
        ...repo,
        run_id: run.id,
        name,
        per_page: PER_PAGE,
      });
      const live = data.artifacts.filter((a) => a.name === name && !a.expired);
      expired += data.artifacts.filter((a) => a.name === name && a.expired).length;
      const artifact = live[0];
      if (!artifact) continue;
      return await fromArtifact(args, run, artifact, baseBranch, maxBytes, warnings);
    }
  } catch (err) {
    const failure = httpFailureOf(err);
    if (!failure) throw err;
    const advice =
      failure.status === 403 || failure.status === 404
        ? '; give the job `permissions: actions: read` so it can read the base branch’s runs and artifacts'
        : '';
    warnings.push(
      `baseline: cannot list the runs of this workflow on ${baseBranch} and their artifacts: ${failure.status} ${failure.message}${advice}`,
    );
    return { why: `the runs on ${baseBranch} could not be read (see the warning)` };
  }
  const expiredNote = expired ? `, ${plural(expired, 'expired one')} aside` : '';
  const limit = ended ? '' : ` (looked through the latest ${plural(looked, 'run')})`;
  return {
    why: `no successful ${orList(events)} run of this workflow on ${baseBranch} has a ${name} artifact yet${expiredNote}${limit}; runs that failed are passed over (on ${baseBranch}, \`fail-on: regression\` lets a run with findings succeed and become the baseline)`,
  };
}

/** `push`, `push or schedule`, `push, schedule or workflow_dispatch`. */
const orList = (words: readonly string[]) =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;

/**
 * Download one run's report artifact and check it. A newer artifact that is broken or too big
 * means the base moved on without a usable report: older runs would be stale, so this falls back
 * rather than looking further.
 */
async function fromArtifact(
  args: FindBaselineArgs,
  run: WorkflowRun,
  artifact: { id: number; name: string; size_in_bytes: number },
  baseBranch: string,
  maxBytes: number,
  warnings: string[],
): Promise<RunsOutcome> {
  const label = `run #${run.run_number} on ${baseBranch} (${run.head_sha.slice(0, 7)})`;
  const problem = (what: string): RunsOutcome => {
    warnings.push(`baseline: the report artifact of ${label}: ${what}; comparing with the fallback instead`);
    return { why: `the report of ${label} is unusable (see the warning)` };
  };
  let dir: string;
  try {
    await args.fs.mkdir(args.tempDir, { recursive: true });
    dir = await args.fs.mkdtemp(path.join(args.tempDir, 'tracejury-baseline-'));
  } catch (err) {
    if (!isFsError(err)) throw err;
    return problem(`cannot make a directory to download it to: ${fsErrorReason(err)}`);
  }
  const read = await readReportArtifact({ octokit: args.octokit!, repo: args.repo, artifact, dir, maxBytes });
  if ('problem' in read) return problem(read.problem);
  const parsed = parseReportJson(read.text);
  if (!parsed.ok) return problem(parsed.problem);
  args.log(`baseline: the report of ${label}`);
  return { found: { report: parsed.report, source: `the report of ${label}`, url: run.html_url }, why: '' };
}

export interface UploadBaselineArgs {
  artifacts: ArtifactStore;
  fs: ActionFs;
  reportPath: string;
  artifactName: string;
  /** Where the renamed copy is written (RUNNER_TEMP). */
  tempDir: string;
  retentionDays?: number;
}

/**
 * Upload the head report as the next baseline, raw, under `<artifactName>.json` (see the note at
 * the top): a copy with that name is written to a fresh directory and uploaded from there.
 */
export async function uploadBaseline(args: UploadBaselineArgs): Promise<{ id?: number; size?: number }> {
  const { fs } = args;
  await fs.mkdir(args.tempDir, { recursive: true });
  const dir = await fs.mkdtemp(path.join(args.tempDir, 'tracejury-upload-'));
  const copy = path.join(dir, baselineArtifactFile(args.artifactName));
  await fs.writeFile(copy, await fs.readFile(args.reportPath));
  const result = await args.artifacts.uploadArtifact(args.artifactName, [copy], dir, {
    skipArchive: true,
    ...(args.retentionDays !== undefined ? { retentionDays: args.retentionDays } : {}),
  });
  return { id: result.id, size: result.size };
}

/**
 * What the workflow runs for, in the terms the Action needs: the pull request to comment on (if
 * any), the branch whose report is the baseline, the commit a check run belongs to, and whether
 * this run's report should become the next baseline. Read from the event payload; the one API
 * call (a pull request's base branch, for workflow_run jobs given only `pr-number`) is made by the
 * caller through `getPull`.
 */
import type { ActionContext } from './deps.js';

export interface PullRequestRef {
  number: number;
  /** The branch it merges into: where the baseline comes from. */
  baseRef: string | undefined;
  /** The base branch's commit the pull request was opened or last updated against (its config is read there). */
  baseSha?: string | undefined;
  headSha: string | undefined;
  /** Opened from another repository: the token of a `pull_request` run is read-only. */
  fromFork: boolean;
}

export interface RunEvent {
  name: string;
  pr: PullRequestRef | undefined;
  /** The branch the baseline is looked up on. */
  baseBranch: string | undefined;
  /** The commit check runs and file links point at. */
  headSha: string;
  defaultBranch: string | undefined;
  /** A push to the default branch: its report becomes the next baseline. */
  pushToDefault: boolean;
  /** The workflow whose runs hold baselines (its file name, or its id for workflow_run events). */
  workflowId: string | number | undefined;
  /** The run's page, where the job summary is. */
  runUrl: string;
  /**
   * A workflow_run job's triggering run (the fork pattern's evals): its artifacts are the ones to
   * link, this job uploads none.
   */
  workflowRunId?: number;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;

function pullRequestOf(pr: Json | undefined): PullRequestRef | undefined {
  const number = num(pr?.number);
  if (!pr || number === undefined) return undefined;
  const base = obj(pr.base);
  const head = obj(pr.head);
  const baseRepo = str(obj(base?.repo)?.full_name);
  const headRepo = str(obj(head?.repo)?.full_name);
  return {
    number,
    baseRef: str(base?.ref),
    baseSha: str(base?.sha),
    headSha: str(head?.sha),
    fromFork: baseRepo !== undefined && headRepo !== undefined && baseRepo !== headRepo,
  };
}

/** `owner/repo/.github/workflows/ci.yml@refs/heads/main` → `ci.yml`, which the runs API takes as an id. */
export function workflowFileOf(workflowRef: string | undefined): string | undefined {
  const m = workflowRef?.match(/\/\.github\/workflows\/([^@/]+)@/);
  return m?.[1];
}

export function resolveEvent(
  context: ActionContext,
  env: NodeJS.ProcessEnv,
  prNumber: number | undefined,
): RunEvent {
  const payload = context.payload as Json;
  const defaultBranch = str(obj(payload.repository)?.default_branch);
  const runUrl = `${context.serverUrl}/${context.repo.owner}/${context.repo.repo}/actions/runs/${context.runId}`;
  const workflowRun = obj(payload.workflow_run);
  let pr = pullRequestOf(obj(payload.pull_request));
  let headSha = context.sha;
  let workflowId: string | number | undefined = workflowFileOf(env.GITHUB_WORKFLOW_REF);
  let workflowRunId: number | undefined;

  if (context.eventName === 'workflow_run' && workflowRun) {
    // The fork pattern's second workflow: the report, the commit and the baselines all belong to
    // the workflow that ran the suite, not to this one.
    headSha = str(workflowRun.head_sha) ?? headSha;
    workflowId = num(workflowRun.workflow_id) ?? workflowId;
    workflowRunId = num(workflowRun.id);
    const prs = Array.isArray(workflowRun.pull_requests) ? workflowRun.pull_requests : [];
    pr = pullRequestOf(obj(prs[0]));
    if (pr) pr = { ...pr, headSha: pr.headSha ?? headSha };
  } else if (pr?.headSha) headSha = pr.headSha;

  if (prNumber !== undefined && pr?.number !== prNumber)
    pr = { number: prNumber, baseRef: undefined, headSha, fromFork: false };

  const ref = context.ref ?? '';
  const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
  const pushToDefault = context.eventName === 'push' && branch !== undefined && branch === defaultBranch;
  return {
    name: context.eventName,
    pr,
    // Without a pull request the default branch is what a run compares with: for a push to it,
    // its previous good run.
    baseBranch: pr ? pr.baseRef : defaultBranch,
    headSha,
    defaultBranch,
    pushToDefault,
    workflowId,
    runUrl,
    ...(workflowRunId !== undefined ? { workflowRunId } : {}),
  };
}

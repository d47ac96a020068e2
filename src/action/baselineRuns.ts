/**
 * Which workflow runs may hold the baseline. GitHub lists under `branch=main` every run whose head
 * branch is called main, and that includes a fork's pull_request run from the fork's own `main`
 * (the flaw reported against a popular artifact-download action, GHSA-5xr6-xhww-33m4). Such a run
 * executes the fork's copy of the workflow, so it can upload any report under the baseline's
 * artifact name, and every later pull request would be compared with it: a planted report can
 * turn a failing regression gate into a passing one.
 *
 * So only this repository's own runs qualify: its pushes to the base branch, and, when the base is
 * the default branch, its scheduled and hand-started (workflow_dispatch) runs there, the only
 * other events that run the default branch's own workflow. Each event is listed with its own
 * `event=` query, and every listed run is checked again (event, head branch, head repository)
 * before its artifacts are looked at: a run that fails a check is passed over, with a line saying
 * why.
 */
import type { Octokit } from './deps.js';

export type WorkflowRun = Awaited<
  ReturnType<Octokit['rest']['actions']['listWorkflowRuns']>
>['data']['workflow_runs'][number];

/** Events whose runs build the base branch's own code with its own workflow. */
export function baselineEvents(baseBranch: string, defaultBranch: string | undefined): string[] {
  return baseBranch === defaultBranch ? ['push', 'schedule', 'workflow_dispatch'] : ['push'];
}

export interface BaselineRunRule {
  /** `owner/repo` of this repository. */
  repository: string;
  baseBranch: string;
  events: readonly string[];
}

/** Why `run` may not hold a baseline, or undefined when it may. */
export function whyNotBaseline(run: WorkflowRun, rule: BaselineRunRule): string | undefined {
  const head = (run.head_repository as WorkflowRun['head_repository'] | null | undefined)?.full_name;
  if (head === undefined || head.toLowerCase() !== rule.repository.toLowerCase())
    return `its commit comes from ${head ?? 'an unknown repository'}, not ${rule.repository}`;
  if (!rule.events.includes(run.event))
    return `it ran for a ${run.event} event; only ${rule.events.join(', ')} runs are baselines`;
  if (run.head_branch !== rule.baseBranch)
    return `it ran on ${run.head_branch ?? 'no branch'}, not ${rule.baseBranch}`;
  return undefined;
}

export interface ListBaselineRunsArgs {
  octokit: Octokit;
  repo: { owner: string; repo: string };
  workflowId: number | string;
  baseBranch: string;
  events: readonly string[];
  /** How many runs (newest first) are wanted at most. */
  limit: number;
}

const PER_PAGE = 100;

/**
 * The newest successful runs of the workflow on the base branch for each event, merged newest
 * first, at most `limit`; `ended` when every listing was read to its end.
 */
export async function listBaselineRuns(
  args: ListBaselineRunsArgs,
): Promise<{ runs: WorkflowRun[]; ended: boolean }> {
  const runs: WorkflowRun[] = [];
  let ended = true;
  for (const event of args.events) {
    let listed = 0;
    for (let page = 1; ; page++) {
      const { data } = await args.octokit.rest.actions.listWorkflowRuns({
        ...args.repo,
        workflow_id: args.workflowId,
        branch: args.baseBranch,
        event,
        status: 'success',
        per_page: PER_PAGE,
        page,
      });
      runs.push(...data.workflow_runs);
      listed += data.workflow_runs.length;
      if (data.workflow_runs.length < PER_PAGE) break;
      if (listed >= args.limit) {
        ended = false;
        break;
      }
    }
  }
  // Newest first across the events, as one listing would have them.
  runs.sort((a, b) => (a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1));
  if (runs.length > args.limit) ended = false;
  return { runs: runs.slice(0, args.limit), ended };
}

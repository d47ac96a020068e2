/**
 * The Action, start to end: inputs → head report → baseline → diff → job summary → PR comment →
 * check run → next baseline → outputs and the step's result. Everything outside (the runner's
 * core, GitHub, the file system, processes, artifacts) comes in through `deps`.
 *
 * It degrades rather than crashes: no pull request means the summary alone; GitHub refusing a
 * comment, a check run or an artifact is a warning naming the permission, and the summary is
 * still written. What fails the step is the gate (as `fail-on` says) or an input to fix.
 */
import path from 'node:path';
import type { Config } from '../config/config.js';
import { diffReports } from '../diff/diffReports.js';
import { failuresText, metricsLine } from '../diff/headline.js';
import type { ReportDiff } from '../diff/schema.js';
import { formatUsd } from '../report/summarise.js';
import type { Report } from '../report/schema.js';
import { plural } from '../util/thousands.js';
import { reportAnnotations, repoPath } from './annotations.js';
import { baselineArtifactName, findBaseline, uploadBaseline } from './baseline.js';
import { checkRunSummary, writeCheckRun } from './checkRun.js';
import { commentMarker, writeComment } from './comment.js';
import { artifactLinks, renderComment, renderJobSummary, type RenderInput } from './commentBody.js';
import type { ActionDeps, Octokit } from './deps.js';
import { resolveEvent, type RunEvent } from './event.js';
import { httpFailureOf, permissionWarning } from './githubError.js';
import { produceHeadReport, type HeadReport } from './headReport.js';
import { writeHeadHtmlReport } from './htmlReport.js';
import {
  artifactUrl,
  errorLine,
  findRunArtifacts,
  savedTraceFiles,
  uploadReportArtifacts,
  type ReportArtifacts,
} from './reportArtifacts.js';
import { prepareOwnFile } from './ownFile.js';
import { resolveRunConfig } from './runConfig.js';
import { resolveTokenIdentity } from './tokenIdentity.js';
import { ActionInputError } from './inputError.js';
import { readInputs, type ActionInputs } from './inputs.js';
import { safeCore } from './safeCore.js';

export interface RunResult {
  passed: boolean;
  reportPath: string;
  diffPath?: string;
  commentUrl?: string;
  checkRunId?: number;
  baselineSource: string;
}

/** Runs `fn`; a GitHub HTTP failure becomes a warning (naming `permission`) and undefined. */
async function degrade<T>(
  deps: ActionDeps,
  what: string,
  permission: string,
  fn: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    const failure = httpFailureOf(err);
    if (!failure) throw err;
    deps.core.warning(permissionWarning(what, failure, permission));
    return undefined;
  }
}

/** A workflow_run job given only `pr-number` learns the PR's base branch and head from the API. */
async function completePullRequest(
  deps: ActionDeps,
  octokit: Octokit | undefined,
  event: RunEvent,
): Promise<RunEvent> {
  if (!event.pr || event.pr.baseRef || !octokit) return event;
  const pr = event.pr;
  const data = await degrade(
    deps,
    `read pull request #${pr.number}`,
    'pull-requests: read',
    async () => (await octokit.rest.pulls.get({ ...deps.context.repo, pull_number: pr.number })).data,
  );
  if (!data) return event;
  return {
    ...event,
    pr: { ...pr, baseRef: data.base.ref, fromFork: data.head.repo?.full_name !== data.base.repo.full_name },
    baseBranch: data.base.ref,
  };
}

/**
 * The HTML report and the saved traces of failing tests as artifacts to link: uploaded from this
 * run, or, in the fork pattern's comment job (workflow_run), found on the run it reads — never
 * uploaded from there, where the report is a fork's data.
 */
async function reportArtifacts(
  deps: ActionDeps,
  octokit: Octokit | undefined,
  event: RunEvent,
  inputs: ActionInputs,
  head: HeadReport,
  paths: { workDir: string; workspace: string; config: Config },
): Promise<ReportArtifacts> {
  const { workDir, workspace, config } = paths;
  const { core, context } = deps;
  if (event.workflowRunId !== undefined) {
    if (!octokit) return {};
    const { found, log } = await findRunArtifacts({
      octokit,
      repo: context.repo,
      runId: event.workflowRunId,
      commentId: inputs.commentId,
      serverUrl: context.serverUrl,
    });
    for (const line of log) core.info(line);
    return found;
  }
  // The page is written here from the report, whatever wrote the report: a page the command or an
  // earlier step left is the PR's, not tracejury's (htmlReport.ts). A failure costs the link, never
  // the step.
  let htmlPath: string | undefined;
  try {
    htmlPath = await writeHeadHtmlReport({
      fs: deps.fs,
      report: head.report,
      reportPath: head.path,
      workDir,
      workspace,
      config,
    });
  } catch (err) {
    core.warning(
      `tracejury: could not write the HTML report (${errorLine(err)}); the comment links the job summary instead`,
    );
  }
  const traces = await savedTraceFiles(deps.fs, head.report, head.path, workDir, workspace);
  if (traces.refused.length > 0)
    core.warning(
      `tracejury: ${plural(traces.refused.length, 'saved trace')} the report names ${traces.refused.length === 1 ? 'leads' : 'lead'} out of the saved traces' folder through a link and ${traces.refused.length === 1 ? 'was' : 'were'} not uploaded: ${traces.refused.slice(0, 5).join(', ')}`,
    );
  if (!htmlPath && traces.files.length === 0) return {};
  const { uploaded, warnings } = await uploadReportArtifacts({
    artifacts: deps.artifacts,
    fs: deps.fs,
    tempDir: deps.tempDir,
    commentId: inputs.commentId,
    htmlPath,
    traces,
    urlOf: (id) => artifactUrl(context.serverUrl, context.repo, context.runId, id),
  });
  for (const w of warnings) core.warning(w);
  for (const a of [uploaded.html, uploaded.traces])
    if (a) core.info(`tracejury: uploaded ${a.name}: ${a.url}`);
  return uploaded;
}

function gateReasons(
  inputs: ActionInputs,
  head: Report,
  commandExit: number | undefined,
  diff: ReportDiff | undefined,
): string[] {
  const reasons: string[] = [];
  const gate = inputs.failOn === 'gate' || inputs.failOn === 'any';
  const regression = inputs.failOn === 'regression' || inputs.failOn === 'any';
  if (gate && !head.gate.passed) reasons.push(...head.gate.reasons);
  // A crash or a failing non-eval test shows only in the exit code, not in the report's gate.
  if (gate && commandExit !== undefined && commandExit !== 0 && head.gate.passed)
    reasons.push(`the command exited with ${commandExit}`);
  if (regression && diff && !diff.gate.passed)
    reasons.push(...diff.gate.reasons.map((r) => `regression: ${r}`));
  return reasons;
}

export async function run(given: ActionDeps): Promise<RunResult | undefined> {
  // Every log line below, and in what it calls, goes through the safe core (safeCore.ts).
  const deps: ActionDeps = { ...given, core: safeCore(given.core) };
  const { core } = deps;
  try {
    const inputs = readInputs(core);
    const workspace = path.resolve(deps.env.GITHUB_WORKSPACE ?? process.cwd());
    const workDir = path.resolve(workspace, inputs.workingDirectory);
    const octokit = inputs.token ? deps.octokit(inputs.token) : undefined;
    const event = await completePullRequest(
      deps,
      octokit,
      resolveEvent(deps.context, deps.env, inputs.prNumber),
    );
    const { owner, repo } = deps.context.repo;

    // The PR's tracejury.yml held to the base branch's wherever it chooses an endpoint, a key or
    // the cassette mode (runConfig.ts); on other events the checkout's own.
    const configFile = inputs.config ? path.resolve(workDir, inputs.config) : undefined;
    const runConfig = await resolveRunConfig({
      octokit,
      repo: { owner, repo },
      event,
      configFile,
      workDir,
      workspace,
      env: deps.env,
    });
    for (const line of runConfig.info) core.info(line);
    for (const w of runConfig.warnings) core.warning(w);
    const { regression } = runConfig.config;

    // The base side first: analysing traces here, its good runs are the baseline of agents the
    // baseline store knows too little of (a CI checkout has no store).
    const artifactName = baselineArtifactName(inputs.commentId);
    const baseline = await findBaseline({
      input: inputs.baseline,
      octokit,
      fs: deps.fs,
      repo: { owner, repo },
      baseBranch: event.baseBranch,
      defaultBranch: event.defaultBranch,
      workflowId: event.workflowId,
      artifactName,
      workDir,
      tempDir: deps.tempDir,
      log: (line) => core.info(line),
    });
    for (const w of baseline.warnings) core.warning(w);
    core.info(`tracejury: baseline: ${baseline.source}`);

    const head = await produceHeadReport(inputs, { workDir, workspace }, deps, {
      config: runConfig.config,
      commandVariables: runConfig.commandVariables,
      ...(baseline.report ? { baseReport: baseline.report } : {}),
    });
    core.setOutput('report-path', head.path);
    core.setOutput('waste-usd', String(head.report.waste.totalUsd));

    const diff = baseline.report ? diffReports(baseline.report, head.report, { regression }) : undefined;
    let diffPath: string | undefined;
    if (diff) {
      diffPath = path.join(path.dirname(head.path), 'diff.json');
      await prepareOwnFile(deps.fs, diffPath, workspace);
      await deps.fs.writeFile(diffPath, JSON.stringify(diff, null, 2) + '\n');
    }
    core.setOutput('diff-path', diffPath ?? '');
    core.setOutput('waste-delta-usd', diff ? String(diff.totals.wasteUsd.delta) : '');
    core.setOutput('new-signals', diff ? String(diff.signals.new.length) : '');

    const artifacts = await reportArtifacts(deps, octokit, event, inputs, head, {
      workDir,
      workspace,
      config: runConfig.config,
    });
    const render: RenderInput = {
      head: head.report,
      diff,
      baselineSource: baseline.source,
      runUrl: event.runUrl,
      artifacts,
      fileUrl: (file, line) => {
        const p = repoPath(file, workDir, workspace);
        return p
          ? `${deps.context.serverUrl}/${owner}/${repo}/blob/${event.headSha}/${p.split('/').map(encodeURIComponent).join('/')}${line ? `#L${line}` : ''}`
          : undefined;
      },
    };
    // The summary first: whatever GitHub refuses below, the report is on the run's page.
    if (deps.env.GITHUB_STEP_SUMMARY) {
      core.summary.addRaw(renderJobSummary(render));
      await core.summary.write();
    } else core.info('tracejury: no GITHUB_STEP_SUMMARY (not on a runner); no job summary written');

    const reasons = gateReasons(inputs, head.report, head.commandExit, diff);
    const passed = reasons.length === 0;

    let commentUrl: string | undefined;
    if (inputs.comment === 'off') core.info('tracejury: comment: off');
    else if (!event.pr)
      core.info(`tracejury: no pull request for this ${event.name} event; the job summary has the report`);
    else if (!octokit) core.warning('tracejury: no github-token; the PR comment was not written');
    else {
      const marker = commentMarker(inputs.commentId);
      const pr = event.pr.number;
      const written = await degrade(
        deps,
        `comment on pull request #${pr}`,
        'pull-requests: write',
        async () => {
          const body = renderComment(render, marker);
          if (inputs.comment === 'new')
            return writeComment(octokit, { owner, repo, issueNumber: pr }, body, { mode: 'new' });
          // Only a comment this token's identity wrote is ours to update (tokenIdentity.ts).
          const identity = await resolveTokenIdentity(octokit, (line) => core.debug(line));
          core.info(`tracejury: the comment to update is the one ${identity.login} wrote (${identity.from})`);
          return writeComment(octokit, { owner, repo, issueNumber: pr }, body, {
            mode: 'update',
            marker,
            author: identity.login,
          });
        },
      );
      if (written) {
        commentUrl = written.url;
        core.info(`tracejury: ${written.action} the PR comment ${written.url}`);
      }
    }
    core.setOutput('comment-url', commentUrl ?? '');

    let checkRunId: number | undefined;
    if (inputs.checkRun && octokit) {
      const { annotations, total } = reportAnnotations(head.report, { workDir, workspace });
      // The rule that failed the regression gate, as the comment's verdict names it; else the numbers.
      const headline =
        (diff && failuresText(diff)) ??
        (diff
          ? `waste ${formatUsd(diff.totals.wasteUsd.base)} → ${formatUsd(diff.totals.wasteUsd.head)}, ${plural(diff.signals.new.length, 'new finding')}`
          : `waste ${formatUsd(head.report.waste.totalUsd)}, ${plural(head.report.inputs.traces, 'trace')}`);
      const check = await degrade(deps, 'create the check run', 'checks: write', () =>
        writeCheckRun(octokit, {
          owner,
          repo,
          name: inputs.commentId === 'default' ? 'tracejury' : `tracejury (${inputs.commentId})`,
          headSha: event.headSha,
          conclusion: passed ? 'success' : inputs.failOn === 'never' ? 'neutral' : 'failure',
          title: `${passed ? 'Passed' : 'Failed'}: ${headline}`,
          summary: checkRunSummary(reasons, { shown: annotations.length, total }, event.runUrl, {
            numbers: diff && metricsLine(diff),
            links: artifactLinks(artifacts),
          }),
          annotations,
        }),
      );
      checkRunId = check?.id;
    }

    if (inputs.uploadBaseline === 'always' || (inputs.uploadBaseline === 'auto' && event.pushToDefault)) {
      try {
        await uploadBaseline({
          artifacts: deps.artifacts,
          reportPath: head.path,
          artifactName,
          tempDir: deps.tempDir,
          fs: deps.fs,
        });
        core.info(
          `tracejury: uploaded the report as ${artifactName}, the baseline for pull requests into ${event.defaultBranch ?? 'this branch'}`,
        );
      } catch (err) {
        // The report is still good; only the next PR's comparison is lost.
        core.warning(
          `tracejury: could not upload the report as the next baseline (${(err as Error).message.split('\n')[0]})`,
        );
      }
    }

    core.setOutput('passed', String(passed || inputs.failOn === 'never'));
    if (!passed && inputs.failOn !== 'never') core.setFailed(`tracejury: ${reasons.join('; ')}`);
    return {
      passed,
      reportPath: head.path,
      ...(diffPath ? { diffPath } : {}),
      ...(commentUrl ? { commentUrl } : {}),
      ...(checkRunId !== undefined ? { checkRunId } : {}),
      baselineSource: baseline.source,
    };
  } catch (err) {
    if (err instanceof ActionInputError) core.setFailed(err.message);
    else
      core.setFailed(
        `tracejury: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
    return undefined;
  }
}

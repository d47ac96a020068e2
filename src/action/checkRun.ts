/**
 * The check run: one per run and comment-id, completed with the step's conclusion, a short
 * summary, and the annotations sent 50 to a request (the create, then updates), as GitHub allows.
 */
import { joinMd, safeMd, mdLink, type Markdown } from '../redact/markdown.js';
import { plural } from '../util/thousands.js';
import { ANNOTATIONS_PER_REQUEST, type Annotation } from './annotations.js';
import type { Octokit } from './deps.js';

export interface CheckRunInput {
  owner: string;
  repo: string;
  name: string;
  headSha: string;
  conclusion: 'success' | 'failure' | 'neutral';
  title: string;
  /** Markdown, at most 65,535 characters. */
  summary: string;
  annotations: readonly Annotation[];
}

const CHECK_SUMMARY_LIMIT = 65_535;

/**
 * The check run's summary (markdown): the diff's numbers when there is a diff (the comment's line:
 * cost, waste and findings with a word for noise), why the step failed, one reason a line —
 * reasons name sessions, traces, files and input errors, so each is escaped as report text is —
 * then the links to the HTML report and the saved traces when there are (commentBody.ts's
 * artifactLinks), how many annotations there are and a link to the job summary.
 */
export function checkRunSummary(
  reasons: readonly string[],
  annotations: { shown: number; total: number },
  runUrl: string,
  extra: { numbers?: Markdown | undefined; links?: Markdown | undefined } = {},
): string {
  const lines = reasons.map((r) => safeMd`- ${r}`);
  const rest =
    annotations.total > annotations.shown
      ? safeMd` (of ${annotations.total}; the rest are in the job summary)`
      : safeMd``;
  const count = safeMd`${plural(annotations.shown, 'annotation')}${rest}. ${mdLink('Job summary', runUrl)}`;
  const paragraphs = [
    ...(extra.numbers ? [extra.numbers] : []),
    ...(lines.length ? [joinMd(lines)] : []),
    ...(extra.links ? [extra.links] : []),
    count,
  ];
  return joinMd(paragraphs, safeMd`\n\n`).source;
}

export async function writeCheckRun(
  octokit: Octokit,
  input: CheckRunInput,
): Promise<{ id: number; url: string; requests: number }> {
  const batches: Annotation[][] = [];
  for (let i = 0; i < input.annotations.length; i += ANNOTATIONS_PER_REQUEST)
    batches.push(input.annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
  const output = (annotations: Annotation[]) => ({
    title: input.title.slice(0, 255),
    summary: input.summary.slice(0, CHECK_SUMMARY_LIMIT),
    annotations,
  });
  const { data } = await octokit.rest.checks.create({
    owner: input.owner,
    repo: input.repo,
    name: input.name,
    head_sha: input.headSha,
    status: 'completed',
    conclusion: input.conclusion,
    output: output(batches[0] ?? []),
  });
  for (const batch of batches.slice(1))
    await octokit.rest.checks.update({
      owner: input.owner,
      repo: input.repo,
      check_run_id: data.id,
      output: output(batch),
    });
  return { id: data.id, url: data.html_url ?? '', requests: Math.max(1, batches.length) };
}

/**
 * What the Action writes, as markdown: the sticky comment (the diff against the baseline, reviewer
 * first: the verdict, the numbers, the worst new findings and the HTML report's link on the first
 * screen, the rest collapsed, then the head report collapsed as far as GitHub's 65,536 characters
 * allow, with a link to the job summary for the rest) and the job summary (the same, with longer
 * lists, and the head report open). Pure: reports in, strings out. Built with `safeMd`
 * (redact/markdown.ts), as the renderers are: everything that came from a report or a trace is
 * redacted and escaped.
 */
import { diffMarkdown } from '../diff/renderMarkdown.js';
import type { ReportDiff } from '../diff/schema.js';
import { joinMd, safeMd, mdCode, mdLink, mdText, type Markdown } from '../redact/markdown.js';
import { reportMarkdown } from '../report/renderMarkdown.js';
import type { Report } from '../report/schema.js';
import { plural } from '../util/thousands.js';
import { VERSION } from '../version.js';
import type { ReportArtifacts } from './reportArtifacts.js';

/** GitHub refuses a comment body over this many characters. */
export const GITHUB_COMMENT_LIMIT = 65_536;
/** The diff's share of the comment; the head report gets what the diff leaves. */
const DIFF_SHARE = 45_000;
/** Below this, the head report is left to the job summary rather than shown as a stub. */
const MIN_HEAD_SECTION = 2_000;
/** A job summary may take 1 MiB; keep well under it. */
const SUMMARY_LIMIT = 900_000;

export interface RenderInput {
  head: Report;
  diff: ReportDiff | undefined;
  /** Where the baseline came from, or why there is none (findBaseline's `source`). */
  baselineSource: string;
  runUrl: string;
  fileUrl?: (file: string, line?: number) => string | undefined;
  /** The HTML report and the saved traces, as artifacts of the run (reportArtifacts.ts). */
  artifacts?: ReportArtifacts;
}

/**
 * "**[Open the HTML report](…)**: each trace's timeline with its findings (artifact
 * `tracejury-report-default.html`, opens in the browser) · [saved traces of failing tests](…) (zip
 * download, 2 files)", saying for each link whether it opens or downloads; undefined with neither.
 */
export function artifactLinks(artifacts: ReportArtifacts | undefined): Markdown | undefined {
  const parts: Markdown[] = [];
  const { html, traces } = artifacts ?? {};
  if (html)
    parts.push(
      safeMd`**${mdLink('Open the HTML report', html.url)}**: each trace's timeline with its findings (artifact ${mdCode(html.name)}, opens in the browser)`,
    );
  if (traces)
    parts.push(
      safeMd`${mdLink('saved traces of failing tests', traces.url)} (zip download${traces.files > 0 ? `, ${plural(traces.files, 'file')}` : ''})`,
    );
  return parts.length > 0 ? joinMd(parts, safeMd` · `) : undefined;
}

/** The head report's own gate, when it failed: a second verdict, beside the regression's. */
function headGateLine(head: Report): Markdown | undefined {
  if (head.gate.passed) return undefined;
  const [first, ...rest] = head.gate.reasons;
  return safeMd`**The head report's gate failed**: ${mdText(first ?? 'failed', 200)}${rest.length ? ` (and ${plural(rest.length, 'more reason')})` : ''}`;
}

/** The first screen's closing lines: the head gate when it failed, the links, the baseline. */
function leadLines(input: RenderInput): Markdown[] {
  const links = artifactLinks(input.artifacts);
  const compared = safeMd`compared with ${mdText(input.baselineSource, 300)}.`;
  return [
    ...[headGateLine(input.head)].filter((l) => l !== undefined),
    links ? safeMd`${links} · ${compared}` : safeMd`Compared with ${mdText(input.baselineSource, 300)}.`,
  ];
}

const baselineLine = (input: RenderInput): Markdown =>
  input.diff
    ? safeMd`Compared with ${mdText(input.baselineSource, 300)}.`
    : safeMd`> No baseline to compare with: ${mdText(input.baselineSource, 300)}. This comment shows the report alone; the next run with a baseline shows the change.`;

const paragraphs = (parts: readonly Markdown[]) => joinMd(parts, safeMd`\n\n`);

/** The diff's links: trace files at the head commit, traces in the HTML report. */
const diffLinks = (input: RenderInput) => ({
  ...(input.fileUrl ? { fileUrl: input.fileUrl } : {}),
  ...(input.artifacts?.html ? { htmlReportUrl: input.artifacts.html.url } : {}),
});

export function renderComment(input: RenderInput, marker: string): string {
  const seeAlso = safeMd`the ${mdLink('job summary', input.runUrl)}`;
  // Blank lines around the rule: after a `</details>` line, anything up to a blank line is HTML.
  const footer = safeMd`\n\n---\n\n<sub>${mdLink('Full report in the job summary', input.runUrl)} · tracejury ${VERSION}</sub>\n`;
  const budget = GITHUB_COMMENT_LIMIT - marker.length - footer.length - 200;
  const parts: Markdown[] = [];
  if (input.diff) {
    const diff = diffMarkdown(input.diff, {
      title: 'tracejury',
      limit: DIFF_SHARE,
      seeAlso,
      lead: leadLines(input),
      ...diffLinks(input),
    });
    parts.push(diff);
    const left = budget - paragraphs(parts).length - 100;
    if (left >= MIN_HEAD_SECTION) {
      const head = reportMarkdown(input.head, { title: 'This pull request', limit: left, seeAlso });
      parts.push(
        safeMd`<details><summary>Head report: ${input.head.gate.passed ? 'gate passed' : 'gate failed'}</summary>\n\n${head}\n</details>`,
      );
    }
  } else {
    const links = artifactLinks(input.artifacts);
    parts.push(
      baselineLine(input),
      ...(links ? [links] : []),
      reportMarkdown(input.head, { limit: budget - 600 - (links?.length ?? 0), seeAlso }),
    );
  }
  // The marker is the comment's first line, written here only: nothing from data can forge it.
  return `${marker}\n${paragraphs(parts).source}${footer.source}`;
}

export function renderJobSummary(input: RenderInput): string {
  const seeAlso = safeMd`the report JSON at the \`report-path\` output`;
  const links = artifactLinks(input.artifacts);
  const parts = [
    ...(input.diff
      ? [
          diffMarkdown(input.diff, {
            title: 'tracejury diff',
            limit: SUMMARY_LIMIT / 2,
            listLimit: 500,
            seeAlso,
            lead: leadLines(input),
            ...diffLinks(input),
          }),
        ]
      : [baselineLine(input), ...(links ? [links] : [])]),
    reportMarkdown(input.head, { limit: SUMMARY_LIMIT / 2, listLimit: 500, seeAlso }),
  ];
  return `${paragraphs(parts).source}\n`;
}

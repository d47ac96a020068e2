/**
 * What the Action writes, as markdown: the sticky comment (the diff against the baseline, then the
 * head report's tests and findings as far as GitHub's 65,536 characters allow, with a link to the
 * job summary for the rest) and the job summary (everything, uncut in practice). Pure: reports in,
 * strings out. Built with `safeMd` (redact/markdown.ts), as the renderers are: everything that came
 * from a report or a trace is redacted and escaped.
 */
import { diffMarkdown } from '../diff/renderMarkdown.js';
import type { ReportDiff } from '../diff/schema.js';
import { joinMd, safeMd, mdLink, mdText, type Markdown } from '../redact/markdown.js';
import { reportMarkdown } from '../report/renderMarkdown.js';
import type { Report } from '../report/schema.js';
import { VERSION } from '../version.js';

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
}

const baselineLine = (input: RenderInput): Markdown =>
  input.diff
    ? safeMd`Compared with ${mdText(input.baselineSource, 300)}.`
    : safeMd`> No baseline to compare with: ${mdText(input.baselineSource, 300)}. This comment shows the report alone; the next run with a baseline shows the change.`;

const paragraphs = (parts: readonly Markdown[]) => joinMd(parts, safeMd`\n\n`);

export function renderComment(input: RenderInput, marker: string): string {
  const seeAlso = safeMd`the ${mdLink('job summary', input.runUrl)}`;
  const footer = safeMd`\n---\n<sub>${mdLink('Full report in the job summary', input.runUrl)} · tracejury ${VERSION}</sub>\n`;
  const budget = GITHUB_COMMENT_LIMIT - marker.length - footer.length - 200;
  const parts: Markdown[] = [];
  if (input.diff) {
    const diff = diffMarkdown(input.diff, {
      title: 'tracejury',
      limit: DIFF_SHARE,
      seeAlso,
      ...(input.fileUrl ? { fileUrl: input.fileUrl } : {}),
    });
    parts.push(diff, baselineLine(input));
    const left = budget - paragraphs(parts).length - 100;
    if (left >= MIN_HEAD_SECTION) {
      const open = input.head.gate.passed ? safeMd`` : safeMd` open`;
      const head = reportMarkdown(input.head, { title: 'This pull request', limit: left, seeAlso });
      parts.push(
        safeMd`<details${open}><summary>Head report: ${input.head.gate.passed ? 'gate passed' : 'gate failed'}</summary>\n\n${head}\n</details>`,
      );
    }
  } else {
    parts.push(baselineLine(input), reportMarkdown(input.head, { limit: budget - 600, seeAlso }));
  }
  // The marker is the comment's first line, written here only: nothing from data can forge it.
  return `${marker}\n${paragraphs(parts).source}${footer.source}`;
}

export function renderJobSummary(input: RenderInput): string {
  const seeAlso = safeMd`the report JSON at the \`report-path\` output`;
  const parts = [
    ...(input.diff
      ? [
          diffMarkdown(input.diff, {
            title: 'tracejury diff',
            limit: SUMMARY_LIMIT / 2,
            listLimit: 500,
            seeAlso,
            ...(input.fileUrl ? { fileUrl: input.fileUrl } : {}),
          }),
        ]
      : []),
    baselineLine(input),
    reportMarkdown(input.head, { limit: SUMMARY_LIMIT / 2, listLimit: 500, seeAlso }),
  ];
  return `${paragraphs(parts).source}\n`;
}

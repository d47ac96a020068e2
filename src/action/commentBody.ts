/**
 * What the Action writes, as markdown: the sticky comment (the diff against the baseline, then the
 * head report's tests and findings as far as GitHub's 65,536 characters allow, with a link to the
 * job summary for the rest) and the job summary (everything, uncut in practice). Pure: reports in,
 * strings out. The renderers redact and escape everything that came from a trace.
 */
import { renderDiffMarkdown } from '../diff/renderMarkdown.js';
import type { ReportDiff } from '../diff/schema.js';
import { escapeMarkdown } from '../report/markdownEscape.js';
import { renderMarkdown } from '../report/renderMarkdown.js';
import type { Report } from '../report/schema.js';
import { redact } from '../redact/redact.js';
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

const baselineLine = (input: RenderInput) =>
  input.diff
    ? `Compared with ${escapeMarkdown(redact(input.baselineSource), 300)}.`
    : `> No baseline to compare with: ${escapeMarkdown(redact(input.baselineSource), 300)}. This comment shows the report alone; the next run with a baseline shows the change.`;

export function renderComment(input: RenderInput, marker: string): string {
  const seeAlso = `the [job summary](${input.runUrl})`;
  const footer = `\n---\n<sub>[Full report in the job summary](${input.runUrl}) · tracejury ${VERSION}</sub>\n`;
  const budget = GITHUB_COMMENT_LIMIT - marker.length - footer.length - 200;
  const parts: string[] = [];
  if (input.diff) {
    const diff = renderDiffMarkdown(input.diff, {
      title: 'tracejury',
      limit: DIFF_SHARE,
      seeAlso,
      ...(input.fileUrl ? { fileUrl: input.fileUrl } : {}),
    });
    parts.push(diff, baselineLine(input));
    const left = budget - parts.join('\n\n').length - 100;
    if (left >= MIN_HEAD_SECTION) {
      const open = input.head.gate.passed ? '' : ' open';
      parts.push(
        `<details${open}><summary>Head report: ${input.head.gate.passed ? 'gate passed' : 'gate failed'}</summary>\n\n` +
          renderMarkdown(input.head, { title: 'This pull request', limit: left, seeAlso }) +
          '\n</details>',
      );
    }
  } else {
    parts.push(baselineLine(input), renderMarkdown(input.head, { limit: budget - 600, seeAlso }));
  }
  return `${marker}\n${parts.join('\n\n')}${footer}`;
}

export function renderJobSummary(input: RenderInput): string {
  const seeAlso = 'the report JSON at the `report-path` output';
  const parts = [
    ...(input.diff
      ? [
          renderDiffMarkdown(input.diff, {
            title: 'tracejury diff',
            limit: SUMMARY_LIMIT / 2,
            listLimit: 500,
            seeAlso,
            ...(input.fileUrl ? { fileUrl: input.fileUrl } : {}),
          }),
        ]
      : []),
    baselineLine(input),
    renderMarkdown(input.head, { limit: SUMMARY_LIMIT / 2, listLimit: 500, seeAlso }),
  ];
  return parts.join('\n\n') + '\n';
}

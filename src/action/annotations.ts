/**
 * Check-run annotations from a report: each failed test at its line, each input error at its file
 * and line, each finding that counts at the line its trace starts on. Paths are made relative to
 * the repository (GitHub ignores annotations on paths it does not know); what lies outside it is
 * left out. Titles and messages are plain text to GitHub (shown, not rendered as markdown): every
 * value from the report in them is redacted, cut and made one line (redact/safeText.ts). Pure.
 */
import path from 'node:path';
import type { Report } from '../report/schema.js';
import { isFinding } from '../report/finding.js';
import { plainText } from '../redact/safeText.js';
import { formatInputError } from '../trace/inputError.js';
import { traceLines } from '../report/traceLines.js';

export interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'notice' | 'warning' | 'failure';
  title: string;
  message: string;
}

/** GitHub takes at most 50 annotations per request. */
export const ANNOTATIONS_PER_REQUEST = 50;
/** Past this many the check run says how many more there were (the summary lists them all). */
export const MAX_ANNOTATIONS = 500;

/** `file` (as the report names it, from workDir) as a path in the repository, or undefined. */
export function repoPath(file: string, workDir: string, workspace: string): string | undefined {
  const absolute = path.resolve(workDir, file);
  const relative = path.relative(workspace, absolute);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

export function reportAnnotations(
  report: Report,
  where: { workDir: string; workspace: string },
): { annotations: Annotation[]; total: number } {
  const out: Annotation[] = [];
  const at = (file: string, line = 1) => {
    const p = repoPath(file, where.workDir, where.workspace);
    return p ? { path: p, start_line: line, end_line: line } : undefined;
  };
  for (const t of report.tests ?? []) {
    if (t.state !== 'failed') continue;
    const loc = at(t.file, t.line);
    if (loc)
      out.push({
        ...loc,
        annotation_level: 'failure',
        title: `Test failed: ${plainText(t.name, 240)}`,
        message: plainText(t.errors?.[0] ?? 'failed', 4000),
      });
  }
  for (const e of report.inputs.errors) {
    const loc = at(e.file, e.line);
    if (loc)
      out.push({
        ...loc,
        annotation_level: 'failure',
        title: 'tracejury: input error',
        message: plainText(formatInputError(e), 4000),
      });
  }
  const lineOf = traceLines(report);
  const failOn = new Set<string>(report.gate.failOn ?? ['critical', 'high']);
  for (const s of report.signals) {
    if (!isFinding(s) || !s.file) continue;
    const loc = at(s.file, lineOf(s.file, s.traceId));
    if (!loc) continue;
    out.push({
      ...loc,
      // In a test run the tests are the gate; a finding there is a warning unless a matcher failed.
      annotation_level: !report.testRun && failOn.has(s.severity) ? 'failure' : 'warning',
      title: `${plainText(s.detector, 80)} (${s.severity}) in ${plainText(s.traceId, 150)}`,
      message: plainText(s.message, 4000),
    });
  }
  return { annotations: out.slice(0, MAX_ANNOTATIONS), total: out.length };
}

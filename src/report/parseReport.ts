/**
 * A report file's text checked as a Report v1, with the problem in words that name the first field
 * that failed. The CLI (diff, merge) and the Action (baseline) read reports from different places
 * (a path, a downloaded artifact) and frame the problem with their own prefix; the wording of what
 * is wrong with the content stays the same everywhere.
 */
import { redactDeep } from '../redact/redact.js';
import { fieldOf, MAX_REPORT_NESTING, nestingProblem } from '../trace/nesting.js';
import { plural } from '../util/thousands.js';
import { ReportSchema, type Report } from './schema.js';

export type ParsedReport = { ok: true; report: Report } | { ok: false; problem: string };

export function parseReportJson(text: string): ParsedReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return {
      ok: false,
      problem: `not valid JSON (${(err as Error).message}); expected a Report v1 (analyze --format json)`,
    };
  }
  // Reading, diffing, merging and writing a report all walk it: depth is bounded before any does.
  const deep = nestingProblem(value, { limit: MAX_REPORT_NESTING });
  if (deep) return { ok: false, problem: `not a Report v1: ${fieldOf(deep.path)}: ${deep.message}` };
  const parsed = ReportSchema.safeParse(value);
  // A report from elsewhere (a shard, a baseline, a fork's upload) may hold what no run of this
  // version would have let through: it is redacted as it is read, before anything shows it.
  if (parsed.success) return { ok: true, report: redactDeep(parsed.data) };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join('.') || '(top level)';
  const more = parsed.error.issues.length - 1;
  return {
    ok: false,
    problem: `not a Report v1: ${field}: ${issue.message}${more > 0 ? ` (and ${plural(more, 'more problem')})` : ''}`,
  };
}

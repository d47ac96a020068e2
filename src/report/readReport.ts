/**
 * A report file, validated: one that cannot be read, is not JSON or is not a Report v1 is a
 * UsageError naming the file and the first field that failed. `tracejury diff`, `tracejury merge`
 * and the Action's report, merge and baseline inputs all read reports through here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../trace/paths.js';
import { fsErrorReason, isFsError } from '../util/fsError.js';
import { plural } from '../util/thousands.js';
import { ReportSchema, type Report } from './schema.js';

/** `text` as a Report v1; `file` only names it in the error. */
export function parseReport(text: string, file: string): Report {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `${file}: not valid JSON (${(err as Error).message}); expected a Report v1 (analyze --format json)`,
    );
  }
  const parsed = ReportSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map(String).join('.') || '(top level)';
    const more = parsed.error.issues.length - 1;
    throw new UsageError(
      `${file}: not a Report v1: ${field}: ${issue.message}${more > 0 ? ` (and ${plural(more, 'more problem')})` : ''}`,
    );
  }
  return parsed.data;
}

export function readReport(file: string, cwd: string): Report {
  let text: string;
  try {
    text = readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (err) {
    if (!isFsError(err)) throw err;
    throw new UsageError(`${file}: cannot read the report: ${fsErrorReason(err)}`);
  }
  return parseReport(text, file);
}

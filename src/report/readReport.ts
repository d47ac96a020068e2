/**
 * A report file, validated: one that cannot be read, is not JSON or is not a Report v1 is a
 * UsageError naming the file and the first field that failed (`tracejury diff`, `tracejury merge`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../trace/paths.js';
import { fsErrorReason, isFsError } from '../util/fsError.js';
import { parseReportJson } from './parseReport.js';
import type { Report } from './schema.js';

export function readReport(file: string, cwd: string): Report {
  let text: string;
  try {
    text = readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (err) {
    if (!isFsError(err)) throw err;
    throw new UsageError(`${file}: cannot read the report: ${fsErrorReason(err)}`);
  }
  const parsed = parseReportJson(text);
  if (!parsed.ok) throw new UsageError(`${file}: ${parsed.problem}`);
  return parsed.report;
}

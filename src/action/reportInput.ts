/**
 * A report file an input names (`report`, `merge`, `baseline`): the user asked for this one, so
 * unreadable or not a Report v1 is an input error naming the input, the file and the first bad
 * field, and saying what to give instead.
 */
import path from 'node:path';
import { parseReportJson } from '../report/parseReport.js';
import type { Report } from '../report/schema.js';
import { fsErrorReason, isFsError } from '../util/fsError.js';
import type { ActionFs } from './deps.js';
import { ActionInputError } from './inputError.js';

export async function readReportInput(
  fs: ActionFs,
  workDir: string,
  input: string,
  file: string,
): Promise<Report> {
  let text: string;
  try {
    text = await fs.readFile(path.resolve(workDir, file), 'utf8');
  } catch (err) {
    if (!isFsError(err)) throw err;
    throw new ActionInputError(
      `${input}: ${file}: cannot read the report: ${fsErrorReason(err)} (${err.code}); give a path relative to working-directory${input === 'baseline' ? ', or auto or none' : ''}`,
    );
  }
  const parsed = parseReportJson(text);
  if (!parsed.ok) throw new ActionInputError(`${input}: ${file}: ${parsed.problem}`);
  return parsed.report;
}

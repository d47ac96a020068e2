/**
 * A report file an input names (`report`, `merge`, `baseline`): the user asked for this one, so
 * unreadable or not a Report v1 is an input error naming the input, the file and the first bad
 * field, and saying what to give instead.
 */
import path from 'node:path';
import { parseReportJson } from '../report/parseReport.js';
import type { Report } from '../report/schema.js';
import { formatBytes } from '../util/bytes.js';
import { fsErrorReason, isFsError } from '../util/fsError.js';
import type { ActionFs } from './deps.js';
import { ActionInputError } from './inputError.js';

export async function readReportInput(
  fs: ActionFs,
  workDir: string,
  input: string,
  file: string,
  options: { maxBytes?: number } = {},
): Promise<Report> {
  let text: string;
  try {
    const resolved = path.resolve(workDir, file);
    if (options.maxBytes !== undefined) {
      const { size } = await fs.stat(resolved);
      if (size > options.maxBytes)
        throw new ActionInputError(
          `${input}: ${file} is ${formatBytes(size)}, over the ${formatBytes(options.maxBytes)} a ${input} report may weigh`,
        );
    }
    text = await fs.readFile(resolved, 'utf8');
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

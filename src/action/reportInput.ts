/**
 * A report file an input names (`report`, `merge`, `baseline`): the user asked for this one, so
 * unreadable or not a Report v1 is an input error naming the input, the file and the first bad
 * field, and saying what to give instead.
 *
 * Every such file is held to the baseline's limit (MAX_BASELINE_BYTES) before it is read: in the fork
 * pattern the `report` a comment job reads was written by the fork's run, as hostile as any
 * baseline, and a file too big to hold as one string would end the step with a RangeError.
 */
import path from 'node:path';
import { parseReportJson } from '../report/parseReport.js';
import type { Report } from '../report/schema.js';
import { formatBytes } from '../util/bytes.js';
import { fmtInt } from '../util/thousands.js';
import { fsErrorReason, isFsError } from '../util/fsError.js';
import type { ActionFs } from './deps.js';
import { MAX_BASELINE_BYTES } from './baselineArtifact.js';
import { ActionInputError } from './inputError.js';

export async function readReportInput(
  fs: ActionFs,
  workDir: string,
  input: string,
  file: string,
  options: { maxBytes?: number } = {},
): Promise<Report> {
  const maxBytes = options.maxBytes ?? MAX_BASELINE_BYTES;
  let text: string;
  try {
    const resolved = path.resolve(workDir, file);
    const { size } = await fs.stat(resolved);
    if (size > maxBytes)
      throw new ActionInputError(
        `${input}: ${file} is ${formatBytes(size)} (${fmtInt(size)} bytes), over the ${formatBytes(maxBytes)} a report file may weigh`,
      );
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

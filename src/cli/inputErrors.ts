/** Input that could not be read, said on stderr where CI logs show it, whatever the output format. */
import { formatInputError } from '../report/renderText.js';
import type { Report } from '../report/schema.js';
import { fmtInt, plural } from '../util/thousands.js';
import type { CliIO } from './io.js';

/** Input errors listed on stderr; the rest are counted (the report's inputs.errors holds up to 1,000). */
const INPUT_ERRORS_ON_STDERR = 20;

/** The first input errors as `file:line: field: what is wrong`, then how many more there are. */
export function writeInputErrors(io: CliIO, inputs: Report['inputs']): void {
  for (const e of inputs.errors.slice(0, INPUT_ERRORS_ON_STDERR)) io.stderr.write(`${formatInputError(e)}\n`);
  const more = inputs.errorCount - Math.min(inputs.errors.length, INPUT_ERRORS_ON_STDERR);
  if (more > 0)
    io.stderr.write(
      `… and ${plural(more, 'more input error')}; the report's inputs.errors lists up to ${fmtInt(inputs.errors.length)} (--format json)\n`,
    );
}

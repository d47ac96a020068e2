/** Input that could not be read, as a test failure lists it: the first few `file:line: field: what`, then a count. */
import { formatInputError, type InputError } from 'tracejury';

export function inputErrorsMessage(
  what: string,
  errors: readonly InputError[],
  count: number,
  options: { max: number; hint?: string },
): string {
  const listed = errors.slice(0, options.max).map((e) => `  ${formatInputError(e)}`);
  if (count > listed.length) listed.push(`  … and ${count - listed.length} more`);
  const hint = options.hint ? ` (${options.hint})` : '';
  return `${what}: ${count} input error${count === 1 ? '' : 's'}${hint}:\n${listed.join('\n')}`;
}

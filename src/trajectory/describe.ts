/**
 * A TrajectoryResult in words: the failure message of `toMatchTrajectory`. It names every list that
 * made the match fail, with arguments and argument diffs, cut to a bounded length so a trace of a
 * thousand calls still gives a message a person can read.
 */
import { showValue } from './argsDiff.js';
import type { TrajectoryMode } from './expected.js';
import type { TrajectoryResult } from './matchTrajectory.js';

export interface DescribeTrajectoryOptions {
  mode: TrajectoryMode;
  /** At most this many entries of each list (default 10); the rest are counted. */
  limit?: number;
}

export const DEFAULT_DESCRIBE_LIMIT = 10;
/** Arguments shown beside a call name are cut to this many characters. */
const ARGS_CHARS = 100;

function args(value: unknown): string {
  return value === undefined ? '' : ` ${showValue(value, ARGS_CHARS)}`;
}

function section<T>(title: string, entries: readonly T[], limit: number, line: (e: T) => string[]): string[] {
  if (entries.length === 0) return [];
  const out = [`${title}:`];
  for (const e of entries.slice(0, limit)) out.push(...line(e).map((l) => `  ${l}`));
  if (entries.length > limit) out.push(`  … and ${entries.length - limit} more`);
  return out;
}

export function describeTrajectoryResult(
  result: TrajectoryResult,
  options: DescribeTrajectoryOptions,
): string {
  const { mode } = options;
  const limit = Math.max(1, Math.floor(options.limit ?? DEFAULT_DESCRIBE_LIMIT));
  const missingAllowed = mode === 'subset';
  const extraAllowed = mode === 'superset';
  const counts = [
    result.missing.length > 0 ? `${result.missing.length} missing` : '',
    result.extra.length > 0 ? `${result.extra.length} extra` : '',
    result.mismatched.length > 0 ? `${result.mismatched.length} with different arguments` : '',
    result.outOfOrder.length > 0 ? `${result.outOfOrder.length} out of order` : '',
  ].filter(Boolean);
  const head = result.pass
    ? `trajectory matches (${mode} mode)`
    : `trajectory does not match (${mode} mode): ${counts.join(', ')}`;

  const lines = [head];
  lines.push(
    ...section(
      `missing: expected but not called${missingAllowed ? ' (allowed in subset mode)' : ''}`,
      result.missing,
      limit,
      (m) => [`expected[${m.index}] ${m.name}${args(m.args)}`],
    ),
    ...section(
      `extra: called but not expected${extraAllowed ? ' (allowed in superset mode)' : ''}`,
      result.extra,
      limit,
      (x) => [`step ${x.step} ${x.name}${args(x.args)}`],
    ),
    ...section('different arguments (- expected, + actual)', result.mismatched, limit, (d) => [
      `expected[${d.index}] ${d.name} vs step ${d.step}:`,
      ...d.diff.split('\n').map((l) => `  ${l}`),
    ]),
    ...section('out of order: called, but not where expected', result.outOfOrder, limit, (o) => [
      `expected[${o.index}] ${o.name} happened at step ${o.step}`,
    ]),
  );
  if (result.pass && counts.length === 0) return `${head}: every call as expected`;
  return lines.join('\n');
}

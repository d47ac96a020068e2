/**
 * A TrajectoryResult in words: the failure message of `toMatchTrajectory`. The recorded calls are
 * laid beside the expected ones, one line each, marked with what is wrong (missing, extra, out of
 * order, wrong args) and how the call itself ended (failed, no result); the argument diffs follow.
 * Cut to a bounded length so a trace of a thousand calls still gives a message a person can read.
 *
 *     trajectory does not match (strict mode): 1 missing, 1 with different arguments, 1 out of order
 *       expected                          actual
 *       [1] search {"q":"SEA"}            step 1 search {"q":"SEA"}          ok
 *       [2] book {"flight":"HAT136"}      step 3 book {"flight":"HAT999"}    wrong args
 *       [0] login                         step 5 login                       out of order
 *       [3] refund {"id":"R1"}            —                                  missing
 */
import { showValue } from './argsDiff.js';
import type { TrajectoryMode } from './expected.js';
import type { AlignedCall, CallMark, TrajectoryResult } from './matchTrajectory.js';

export interface DescribeTrajectoryOptions {
  /** The mode the result was computed in; the result's own `mode` when absent. */
  mode?: TrajectoryMode;
  /** At most this many argument diffs (default 10), and about three times as many call lines. */
  limit?: number;
}

export const DEFAULT_DESCRIBE_LIMIT = 10;
/** Arguments shown beside a call name are cut to this many characters. */
const ARGS_CHARS = 60;
/** The expected column is at most this wide; longer entries push their line's actual column right. */
const COLUMN_CHARS = 48;

const MARK_WORDS: Record<CallMark, string> = {
  ok: 'ok',
  missing: 'missing',
  extra: 'extra',
  outOfOrder: 'out of order',
  wrongArgs: 'wrong args',
  failed: 'failed',
  noResult: 'no result',
};

function args(value: unknown): string {
  return value === undefined ? '' : ` ${showValue(value, ARGS_CHARS)}`;
}

function expectedText(c: AlignedCall): string {
  return c.expected ? `[${c.expected.index}] ${c.expected.name}${args(c.expected.args)}` : '—';
}

function actualText(c: AlignedCall): string {
  return c.actual ? `step ${c.actual.step} ${c.actual.name}${args(c.actual.args)}` : '—';
}

function marksText(c: AlignedCall, mode: TrajectoryMode, batchSize: Map<number, number>): string {
  const words = c.marks.map((m) => {
    if (m === 'missing' && mode === 'subset') return 'missing (allowed in subset mode)';
    if (m === 'extra' && mode === 'superset') return 'extra (allowed in superset mode)';
    return MARK_WORDS[m];
  });
  const issuer = c.actual?.issuedBy;
  if (issuer !== undefined && (batchSize.get(issuer) ?? 0) > 1)
    words.push(`parallel: issued by step ${issuer}`);
  return words.join(', ');
}

/** A line with a problem, as opposed to a call that is where it should be. */
function isProblem(c: AlignedCall, mode: TrajectoryMode): boolean {
  return c.marks.some(
    (m) =>
      m === 'outOfOrder' ||
      m === 'wrongArgs' ||
      (m === 'missing' && mode !== 'subset') ||
      (m === 'extra' && mode !== 'superset'),
  );
}

/**
 * The lines to show: all of them when few; otherwise every problem line (up to a cap) with one line
 * of context each side, the lines between counted.
 */
function shownLines(
  calls: readonly AlignedCall[],
  mode: TrajectoryMode,
  limit: number,
): (AlignedCall | number)[] {
  const maxLines = 3 * limit;
  if (calls.length <= maxLines) return [...calls];
  const keep = new Set<number>();
  let problems = 0;
  calls.forEach((c, i) => {
    if (!isProblem(c, mode) || problems >= 2 * limit) return;
    problems++;
    for (const j of [i - 1, i, i + 1]) if (j >= 0 && j < calls.length) keep.add(j);
  });
  if (keep.size === 0) for (let i = 0; i < maxLines; i++) keep.add(i);
  const out: (AlignedCall | number)[] = [];
  let skipped = 0;
  calls.forEach((c, i) => {
    if (!keep.has(i)) {
      skipped++;
      return;
    }
    if (skipped > 0) out.push(skipped);
    skipped = 0;
    out.push(c);
  });
  if (skipped > 0) out.push(skipped);
  return out;
}

function table(result: TrajectoryResult, mode: TrajectoryMode, limit: number): string[] {
  const batchSize = new Map<number, number>();
  for (const c of result.calls) {
    const issuer = c.actual?.issuedBy;
    if (issuer !== undefined) batchSize.set(issuer, (batchSize.get(issuer) ?? 0) + 1);
  }
  const lines = shownLines(result.calls, mode, limit);
  const rows = lines.filter((l): l is AlignedCall => typeof l !== 'number');
  const width = Math.min(
    COLUMN_CHARS,
    Math.max('expected'.length, ...rows.map((r) => expectedText(r).length)),
  );
  const actualWidth = Math.min(
    COLUMN_CHARS,
    Math.max('actual'.length, ...rows.map((r) => actualText(r).length)),
  );
  const out = [`  ${'expected'.padEnd(width)}  actual`];
  for (const l of lines) {
    if (typeof l === 'number') {
      out.push(`  … ${l} more ${l === 1 ? 'line' : 'lines'}`);
      continue;
    }
    out.push(
      `  ${expectedText(l).padEnd(width)}  ${actualText(l).padEnd(actualWidth)}  ${marksText(l, mode, batchSize)}`,
    );
  }
  return out;
}

export function describeTrajectoryResult(
  result: TrajectoryResult,
  options: DescribeTrajectoryOptions = {},
): string {
  const mode = options.mode ?? result.mode;
  const limit = Math.max(1, Math.floor(options.limit ?? DEFAULT_DESCRIBE_LIMIT));
  const counts = [
    result.missing.length > 0 ? `${result.missing.length} missing` : '',
    result.extra.length > 0 ? `${result.extra.length} extra` : '',
    result.mismatched.length > 0 ? `${result.mismatched.length} with different arguments` : '',
    result.outOfOrder.length > 0 ? `${result.outOfOrder.length} out of order` : '',
  ].filter(Boolean);
  const head = result.pass
    ? `trajectory matches (${mode} mode)`
    : `trajectory does not match (${mode} mode): ${counts.join(', ')}`;
  if (result.pass && counts.length === 0) return `${head}: every call as expected`;

  const lines = [head, ...table(result, mode, limit)];
  if (result.mismatched.length > 0) {
    lines.push('different arguments (- expected, + actual):');
    for (const d of result.mismatched.slice(0, limit)) {
      lines.push(
        `  expected[${d.index}] ${d.name} vs step ${d.step}:`,
        ...d.diff.split('\n').map((l) => `    ${l}`),
      );
    }
    if (result.mismatched.length > limit) lines.push(`  … and ${result.mismatched.length - limit} more`);
  }
  return lines.join('\n');
}

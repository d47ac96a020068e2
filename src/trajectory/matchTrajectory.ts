/**
 * matchTrajectory: did the agent make the tool calls a test expects? The library function behind
 * the Vitest matcher `toMatchTrajectory`; pure, deterministic, no I/O.
 *
 * The trace's calls are its `tool` steps in order, each keeping its step number (from 1).
 * `ignore.tools` removes those tools from both sides, `ignore.failedCalls` the trace's calls whose
 * status is 'error'. Pairing, for the report: strict mode aligns in order (alignCalls.ts), the
 * others pair regardless of order (pairCalls.ts); a same-name pair whose arguments differ is one
 * `mismatched` entry, not a missing plus an extra call. In strict mode a call that happened but not
 * where expected is an `outOfOrder` entry (the other modes never fill that list).
 */
import type { Trace } from '../trace/schema.js';
import { alignCalls } from './alignCalls.js';
import { argsDiff } from './argsDiff.js';
import { argsEqual, comparableActual, normaliseArgs } from './argsEqual.js';
import { ExpectedTrajectorySchema, type ExpectedCall } from './expected.js';
import { argsRuleFor, checkOptions, type MatchTrajectoryOptions } from './options.js';
import { pairCalls } from './pairCalls.js';

/** An expected call that did not happen. `index` is its place in the `expected` array (from 0). */
export interface MissingCall {
  index: number;
  name: string;
  args?: unknown;
}

/** A call the trace made that nothing expected. `step` is its step number in the trace (from 1). */
export interface ExtraCall {
  step: number;
  name: string;
  args?: unknown;
}

/** An expected call and a recorded call of the same tool whose arguments differ. */
export interface MismatchedCall {
  index: number;
  step: number;
  name: string;
  expectedArgs: unknown;
  actualArgs: unknown;
  /** Path-by-path text diff, `-` expected and `+` actual (argsDiff.ts). */
  diff: string;
}

/** Strict mode only: the expected call `index` happened, at `step`, but not in the expected order. */
export interface OutOfOrderCall {
  index: number;
  step: number;
  name: string;
  args?: unknown;
}

export interface TrajectoryResult {
  pass: boolean;
  missing: MissingCall[];
  extra: ExtraCall[];
  mismatched: MismatchedCall[];
  outOfOrder: OutOfOrderCall[];
}

/** A side of the comparison: the arguments are normalised (JSON strings parsed). */
interface Call {
  name: string;
  args?: unknown;
  /** Expected: index in `expected`; actual: step number. */
  at: number;
}

function withArgs<T extends object>(entry: T, args: unknown): T & { args?: unknown } {
  return args === undefined ? entry : { ...entry, args };
}

function readExpected(expected: unknown): ExpectedCall[] {
  const parsed = ExpectedTrajectorySchema.safeParse(expected);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  throw new TypeError(
    `matchTrajectory: expected${where}: ${issue.message}; expected is an array of { name, args? }`,
  );
}

export function matchTrajectory(
  trace: Pick<Trace, 'steps'>,
  expected: readonly ExpectedCall[],
  options: MatchTrajectoryOptions,
): TrajectoryResult {
  const opts = checkOptions(options);
  const ignoredTools = new Set(opts.ignore?.tools ?? []);
  const skipFailed = opts.ignore?.failedCalls === true;

  const want: Call[] = [];
  readExpected(expected).forEach((c, index) => {
    if (!ignoredTools.has(c.name)) want.push({ name: c.name, args: normaliseArgs(c.args), at: index });
  });
  const got: Call[] = [];
  trace.steps.forEach((s, i) => {
    if (s.type !== 'tool' || ignoredTools.has(s.name) || (skipFailed && s.status === 'error')) return;
    got.push({ name: s.name, args: normaliseArgs(s.args), at: i + 1 });
  });

  const accepts = (e: number, a: number): boolean => {
    const w = want[e]!;
    if (w.args === undefined) return true;
    const rule = argsRuleFor(opts.args, w.name);
    if (rule === 'ignore') return true;
    const actual = comparableActual(got[a]!.args, w.args);
    return rule === 'exact' ? argsEqual(actual, w.args) : rule(actual, w.args, w.name) === true;
  };
  const wantNames = want.map((c) => c.name);
  const gotNames = got.map((c) => c.name);

  let mismatchedPairs: [number, number][];
  let missing: number[];
  let extra: number[];
  let outOfOrderPairs: [number, number][] = [];
  if (opts.mode === 'strict') {
    const aligned = alignCalls(wantNames, gotNames, accepts);
    mismatchedPairs = aligned.pairs.filter((p) => !p.exact).map((p) => [p.expected, p.actual]);
    // What the alignment left over may still have happened, only elsewhere: pair the leftovers
    // regardless of order; exact pairs are out of order, same-name pairs mismatches.
    const rest = pairCalls(
      aligned.missing.map((e) => wantNames[e]!),
      aligned.extra.map((a) => gotNames[a]!),
      (e, a) => accepts(aligned.missing[e]!, aligned.extra[a]!),
    );
    const back = ([e, a]: [number, number]): [number, number] => [aligned.missing[e]!, aligned.extra[a]!];
    outOfOrderPairs = rest.exact.map(back);
    mismatchedPairs = [...mismatchedPairs, ...rest.mismatched.map(back)];
    missing = rest.missing.map((e) => aligned.missing[e]!);
    extra = rest.extra.map((a) => aligned.extra[a]!);
  } else {
    const paired = pairCalls(wantNames, gotNames, accepts);
    mismatchedPairs = paired.mismatched;
    missing = paired.missing;
    extra = paired.extra;
  }

  const result: TrajectoryResult = {
    pass: false,
    missing: missing.map((e) => withArgs({ index: want[e]!.at, name: want[e]!.name }, want[e]!.args)),
    extra: extra.map((a) => withArgs({ step: got[a]!.at, name: got[a]!.name }, got[a]!.args)),
    mismatched: mismatchedPairs
      .map(([e, a]) => ({
        index: want[e]!.at,
        step: got[a]!.at,
        name: want[e]!.name,
        expectedArgs: want[e]!.args,
        actualArgs: got[a]!.args,
        diff:
          argsDiff(want[e]!.args, comparableActual(got[a]!.args, want[e]!.args)) ||
          '(same arguments; the comparator for this tool rejected them)',
      }))
      .sort((x, y) => x.index - y.index),
    outOfOrder: outOfOrderPairs
      .map(([e, a]) => withArgs({ index: want[e]!.at, step: got[a]!.at, name: want[e]!.name }, want[e]!.args))
      .sort((x, y) => x.index - y.index),
  };
  result.pass =
    result.mismatched.length === 0 &&
    result.outOfOrder.length === 0 &&
    (result.missing.length === 0 || opts.mode === 'subset') &&
    (result.extra.length === 0 || opts.mode === 'superset');
  return result;
}

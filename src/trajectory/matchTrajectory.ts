/**
 * matchTrajectory: did the agent make the tool calls a test expects? The library function behind
 * the Vitest matcher `toMatchTrajectory`; pure, deterministic, no I/O.
 *
 * The trace's calls are its `tool` steps in order, each keeping its step number (from 1); calls
 * with the same `issuedBy` (issued together in one model response) are a batch with no order among
 * themselves. `ignore.tools` removes those tools from both sides, `ignore.failedCalls` the trace's
 * calls whose status is 'error'. Pairing, for the report: strict mode aligns in order, batch by
 * batch (alignCalls.ts), and then pairs what is left regardless of order: such a pair is out of
 * order (and may also have other arguments); the other modes pair regardless of order
 * (pairCalls.ts). A same-name pair whose arguments differ is one `mismatched` entry, not a missing
 * plus an extra call. Every problem is reported at once, and `calls` lays the recorded calls out
 * beside the expected ones, each with what is wrong with it.
 */
import type { ToolStatus, Trace } from '../trace/schema.js';
import { alignCalls, type AlignedEvent } from './alignCalls.js';
import { argsDiff, type DiffMode } from './argsDiff.js';
import { argsContain, argsEqual, comparableActual, normaliseArgs } from './argsEqual.js';
import { ExpectedTrajectorySchema, type ExpectedCall, type TrajectoryMode } from './expected.js';
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
  /** Set when the call failed ('error') or has no recorded result ('unknown'). */
  status?: Exclude<ToolStatus, 'ok'>;
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

/**
 * Strict mode only: the expected call `index` happened, at `step`, but not in the expected order.
 * A call out of order whose arguments also differ is in `mismatched` too.
 */
export interface OutOfOrderCall {
  index: number;
  step: number;
  name: string;
  args?: unknown;
}

/** What is wrong (or right) with one line of `calls`. */
export type CallMark = 'ok' | 'missing' | 'extra' | 'outOfOrder' | 'wrongArgs' | 'failed' | 'noResult';

/**
 * One line of the recorded sequence laid beside the expected one: a recorded call with the expected
 * call it stands for, a recorded call nothing expected (`extra`), or an expected call that did not
 * happen (`missing`, where it was due).
 */
export interface AlignedCall {
  expected?: { index: number; name: string; args?: unknown };
  actual?: { step: number; name: string; args?: unknown; status: ToolStatus; issuedBy?: number };
  /**
   * `ok`, `missing`, `extra`, `outOfOrder`, `wrongArgs` (several may apply), and about the
   * recorded call itself `failed` (status 'error') or `noResult` (status 'unknown').
   */
  marks: CallMark[];
}

export interface TrajectoryResult {
  pass: boolean;
  /** The mode the calls were compared in (the default when the options named none). */
  mode: TrajectoryMode;
  missing: MissingCall[];
  extra: ExtraCall[];
  mismatched: MismatchedCall[];
  outOfOrder: OutOfOrderCall[];
  /** The recorded calls in trace order beside the expected ones, missing calls where they were due. */
  calls: AlignedCall[];
}

/** A side of the comparison: the arguments are normalised (JSON strings parsed). */
interface Call {
  name: string;
  args?: unknown;
  /** Expected: index in `expected`; actual: step number. */
  at: number;
  status: ToolStatus;
  issuedBy?: number;
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

/** The recorded calls in batches: calls with one `issuedBy` together, at the first one's place. */
function batchesOf(got: readonly Call[]): number[][] {
  const batches: number[][] = [];
  const byIssuer = new Map<number, number[]>();
  got.forEach((c, a) => {
    if (c.issuedBy === undefined) {
      batches.push([a]);
      return;
    }
    const batch = byIssuer.get(c.issuedBy);
    if (batch) batch.push(a);
    else {
      const fresh = [a];
      byIssuer.set(c.issuedBy, fresh);
      batches.push(fresh);
    }
  });
  return batches;
}

/** A pair of indices (into want and got) and whether the arguments were accepted. */
interface Pair {
  e: number;
  a: number;
  exact: boolean;
  outOfOrder: boolean;
}

/**
 * Strict mode: events in sequence order, after pairing what the in-order alignment left over
 * regardless of order (those pairs are out of order; their line stays at the recorded call).
 */
function strictEvents(
  want: readonly Call[],
  got: readonly Call[],
  accepts: (e: number, a: number) => boolean,
  failed: (a: number) => boolean,
): { events: AlignedEvent[]; pairs: Pair[] } {
  const events = alignCalls({
    expectedNames: want.map((c) => c.name),
    actualNames: got.map((c) => c.name),
    batches: batchesOf(got),
    accepts,
    failed,
  });
  const missing: number[] = [];
  const extra: number[] = [];
  const pairs: Pair[] = [];
  for (const ev of events) {
    if (ev.kind === 'missing') missing.push(ev.expected);
    else if (ev.kind === 'extra') extra.push(ev.actual);
    else pairs.push({ e: ev.expected, a: ev.actual, exact: ev.exact, outOfOrder: false });
  }
  const rest = pairCalls(
    missing.map((e) => want[e]!.name),
    extra.map((a) => got[a]!.name),
    (i, j) => accepts(missing[i]!, extra[j]!),
    (j) => !failed(extra[j]!),
  );
  const late = [
    ...rest.exact.map(([i, j]) => ({ e: missing[i]!, a: extra[j]!, exact: true, outOfOrder: true })),
    ...rest.mismatched.map(([i, j]) => ({ e: missing[i]!, a: extra[j]!, exact: false, outOfOrder: true })),
  ];
  const partnerOfActual = new Map(late.map((p) => [p.a, p]));
  const pairedLate = new Set(late.map((p) => p.e));
  const out: AlignedEvent[] = [];
  for (const ev of events) {
    if (ev.kind === 'missing' && pairedLate.has(ev.expected)) continue;
    const p = ev.kind === 'extra' ? partnerOfActual.get(ev.actual) : undefined;
    out.push(p ? { kind: 'pair', expected: p.e, actual: p.a, exact: p.exact } : ev);
  }
  return { events: out, pairs: [...pairs, ...late] };
}

/** The other modes: every recorded call in trace order, then the expected calls that did not happen. */
function unorderedEvents(
  want: readonly Call[],
  got: readonly Call[],
  accepts: (e: number, a: number) => boolean,
  failed: (a: number) => boolean,
): { events: AlignedEvent[]; pairs: Pair[] } {
  const paired = pairCalls(
    want.map((c) => c.name),
    got.map((c) => c.name),
    accepts,
    (a) => !failed(a),
  );
  const pairs: Pair[] = [
    ...paired.exact.map(([e, a]) => ({ e, a, exact: true, outOfOrder: false })),
    ...paired.mismatched.map(([e, a]) => ({ e, a, exact: false, outOfOrder: false })),
  ];
  const partner = new Map(pairs.map((p) => [p.a, p]));
  const events: AlignedEvent[] = got.map((_, a) => {
    const p = partner.get(a);
    return p ? { kind: 'pair', expected: p.e, actual: p.a, exact: p.exact } : { kind: 'extra', actual: a };
  });
  for (const e of paired.missing) events.push({ kind: 'missing', expected: e });
  return { events, pairs };
}

export function matchTrajectory(
  trace: Pick<Trace, 'steps'>,
  expected: readonly ExpectedCall[],
  options?: MatchTrajectoryOptions,
): TrajectoryResult {
  const opts = checkOptions(options);
  const mode = opts.mode;
  const ignoredTools = new Set(opts.ignore?.tools ?? []);
  const skipFailed = opts.ignore?.failedCalls === true;

  const want: Call[] = [];
  readExpected(expected).forEach((c, index) => {
    if (!ignoredTools.has(c.name)) {
      want.push({ name: c.name, args: normaliseArgs(c.args), at: index, status: 'ok' });
    }
  });
  const got: Call[] = [];
  trace.steps.forEach((s, i) => {
    if (s.type !== 'tool' || ignoredTools.has(s.name) || (skipFailed && s.status === 'error')) return;
    const call: Call = { name: s.name, args: normaliseArgs(s.args), at: i + 1, status: s.status };
    if (s.issuedBy !== undefined) call.issuedBy = s.issuedBy;
    got.push(call);
  });

  const diffMode = (name: string): DiffMode => {
    const rule = argsRuleFor(opts.args, name);
    return rule === 'superset' || rule === 'subset' ? rule : 'exact';
  };
  const accepts = (e: number, a: number): boolean => {
    const w = want[e]!;
    if (w.args === undefined) return true;
    const rule = argsRuleFor(opts.args, w.name);
    if (rule === 'ignore') return true;
    const actual = comparableActual(got[a]!.args, w.args);
    if (rule === 'exact') return argsEqual(actual, w.args);
    if (rule === 'superset') return argsContain(actual, w.args);
    if (rule === 'subset') return argsContain(w.args, actual);
    return rule(actual, w.args, w.name) === true;
  };
  const failed = (a: number) => got[a]!.status === 'error';

  const { events, pairs } =
    mode === 'strict'
      ? strictEvents(want, got, accepts, failed)
      : unorderedEvents(want, got, accepts, failed);

  const pairOfActual = new Map(pairs.map((p) => [p.a, p]));
  const expectedCall = (e: number) => withArgs({ index: want[e]!.at, name: want[e]!.name }, want[e]!.args);
  const actualCall = (a: number): NonNullable<AlignedCall['actual']> => {
    const c = got[a]!;
    const call: NonNullable<AlignedCall['actual']> = withArgs(
      { step: c.at, name: c.name, status: c.status },
      c.args,
    );
    if (c.issuedBy !== undefined) call.issuedBy = c.issuedBy;
    return call;
  };
  const statusMarks = (a: number): CallMark[] =>
    got[a]!.status === 'error' ? ['failed'] : got[a]!.status === 'unknown' ? ['noResult'] : [];

  const calls: AlignedCall[] = events.map((ev) => {
    if (ev.kind === 'missing') return { expected: expectedCall(ev.expected), marks: ['missing'] };
    if (ev.kind === 'extra')
      return { actual: actualCall(ev.actual), marks: ['extra', ...statusMarks(ev.actual)] };
    const p = pairOfActual.get(ev.actual)!;
    const marks: CallMark[] = [];
    if (p.outOfOrder) marks.push('outOfOrder');
    if (!p.exact) marks.push('wrongArgs');
    if (marks.length === 0) marks.push('ok');
    return { expected: expectedCall(p.e), actual: actualCall(p.a), marks: [...marks, ...statusMarks(p.a)] };
  });

  const byIndex = <T extends { index: number }>(list: T[]) => list.sort((x, y) => x.index - y.index);
  const result: TrajectoryResult = {
    pass: false,
    mode,
    missing: calls.filter((c) => c.marks.includes('missing')).map((c) => c.expected!),
    extra: calls
      .filter((c) => c.marks.includes('extra'))
      .map((c) => {
        const x = c.actual!;
        const entry: ExtraCall = withArgs({ step: x.step, name: x.name }, x.args);
        if (x.status !== 'ok') entry.status = x.status;
        return entry;
      }),
    mismatched: byIndex(
      pairs
        .filter((p) => !p.exact)
        .map(({ e, a }) => ({
          index: want[e]!.at,
          step: got[a]!.at,
          name: want[e]!.name,
          expectedArgs: want[e]!.args,
          actualArgs: got[a]!.args,
          diff:
            argsDiff(
              want[e]!.args,
              comparableActual(got[a]!.args, want[e]!.args),
              undefined,
              diffMode(want[e]!.name),
            ) || '(same arguments; the comparator for this tool rejected them)',
        })),
    ),
    outOfOrder: byIndex(
      pairs
        .filter((p) => p.outOfOrder)
        .map(({ e, a }) =>
          withArgs({ index: want[e]!.at, step: got[a]!.at, name: want[e]!.name }, want[e]!.args),
        ),
    ),
    calls,
  };
  result.missing = byIndex(result.missing);
  result.pass =
    result.mismatched.length === 0 &&
    result.outOfOrder.length === 0 &&
    (result.missing.length === 0 || mode === 'subset') &&
    (result.extra.length === 0 || mode === 'superset');
  return result;
}

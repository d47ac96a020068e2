/**
 * How deep a JSON value may nest. Everything after loading — session facts, state hashing,
 * evidence, JSON output, redaction — walks values recursively, and a 6 KB line with `args` nested
 * 3,000 deep overflowed the stack in one of them and ended the whole run. The bound is enforced
 * where a record is read (FileReader, for every format's raw record), where a trace is validated
 * (parseTrace: traces built from embedded JSON strings, and trace objects a library caller
 * passes), and where a report is read (parseReportJson): a value past it is that record's input
 * error, and no later stage can meet one.
 */

/** Levels of objects and arrays a trace record may nest: real recordings stay far below it. */
export const MAX_NESTING = 64;

/**
 * Levels a report may nest: the trace content its evidence quotes (MAX_NESTING) under the report's
 * own structure (`signals[0].evidence.calls[0].args…`).
 */
export const MAX_REPORT_NESTING = MAX_NESTING + 32;

/** How much of a too-deep value's path an error shows: its start says which field it is. */
const PATH_SHOWN = 8;

export interface NestingProblem {
  /** The path to the value past the limit, cut after its first keys: `steps[3].args.a.a.a…`. */
  path: (string | number)[];
  message: string;
}

/**
 * Whether `value` (itself at `depth`, for an element of a document) nests deeper than `limit`
 * levels of objects and arrays, and where. Recursion stops at the limit, so it is safe on any
 * depth. `shared`: the value may reach one object from several parents (an imported trace: chat
 * messages repeated in every prompt), which a walk of every path could take exponential time
 * over; what JSON.parse made has no shared parts.
 */
export function nestingProblem(
  value: unknown,
  {
    limit = MAX_NESTING,
    depth = 0,
    shared = false,
  }: { limit?: number; depth?: number; shared?: boolean } = {},
): NestingProblem | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  // A shared value is first walked path by path too, which is exact and needs no map of every
  // object seen (the map was most of the cost); only a value whose repeats make that walk long is
  // walked again with the map, each object again only when it is reached deeper than before.
  let deep = walk(value, depth, limit, shared ? TREE_WALK_BUDGET : Infinity, undefined);
  if (deep === OVER_BUDGET) deep = walk(value, depth, limit, Infinity, new Map<object, number>());
  if (deep !== TOO_DEEP) return undefined;
  return {
    path: pathPastLimit(value, limit - depth),
    message: `nested deeper than ${limit} levels of objects and arrays`,
  };
}

const WITHIN = 0;
const TOO_DEEP = 1;
const OVER_BUDGET = 2;
/** Objects and arrays a shared value's tree walk visits before it is walked with a map instead. */
const TREE_WALK_BUDGET = 1 << 20;

/**
 * Whether `value` (an object or array at `depth`) nests to `limit`: TOO_DEEP, WITHIN, or
 * OVER_BUDGET when it has more than `budget` objects and arrays on its paths. With `seenAt`, an
 * object is walked again only from a deeper place than before (at most `limit` times).
 */
function walk(
  value: object,
  depth: number,
  limit: number,
  budget: number,
  seenAt: Map<object, number> | undefined,
): number {
  let visits = 0;
  // Called for objects and arrays only: most values of a record are strings and numbers, and
  // testing them in place saves a call each (this walks every record read).
  const tooDeep = (v: object, at: number): number => {
    if (at >= limit) return TOO_DEEP;
    if (++visits > budget) return OVER_BUDGET;
    if (seenAt) {
      const seen = seenAt.get(v);
      // Walked before from as deep or deeper: nothing below it can go further from here.
      if (seen !== undefined && seen >= at) return WITHIN;
      seenAt.set(v, at);
    }
    let r: number;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child: unknown = v[i];
        if (typeof child === 'object' && child !== null && (r = tooDeep(child, at + 1)) !== WITHIN) return r;
      }
    } else {
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        const child = (v as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null && (r = tooDeep(child, at + 1)) !== WITHIN) return r;
      }
    }
    return WITHIN;
  };
  return tooDeep(value, depth);
}

/** The first path that goes past `limit` levels, its first PATH_SHOWN keys and then "…". */
function pathPastLimit(value: unknown, limit: number): (string | number)[] {
  const path: (string | number)[] = [];
  let v = value;
  for (let depth = 0; depth < limit && typeof v === 'object' && v !== null; depth++) {
    const entries: [string | number, unknown][] = Array.isArray(v)
      ? v.map((item, i) => [i, item])
      : Object.entries(v as Record<string, unknown>);
    // Each child is walked with a map of its own: a shared value's paths may be exponentially many.
    const next = entries.find(
      ([, child]) =>
        typeof child === 'object' &&
        child !== null &&
        walk(child, depth + 1, limit, Infinity, new Map()) === TOO_DEEP,
    );
    if (!next) break;
    if (path.length < PATH_SHOWN) path.push(next[0]);
    else if (path.length === PATH_SHOWN) path.push('…');
    v = next[1];
  }
  return path;
}

/** `steps[3].args.a`: a nesting path as the input errors write fields. */
export function fieldOf(path: readonly (string | number)[]): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : p === '…' ? '…' : i === 0 ? p : `.${p}`))
    .join('');
}

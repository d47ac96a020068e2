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
 * messages repeated in every prompt), so each object is walked once from its shallowest place;
 * what JSON.parse made has no shared parts and is walked without that bookkeeping.
 */
export function nestingProblem(
  value: unknown,
  {
    limit = MAX_NESTING,
    depth = 0,
    shared = false,
  }: { limit?: number; depth?: number; shared?: boolean } = {},
): NestingProblem | undefined {
  const seenAt = shared ? new Map<object, number>() : undefined;
  // Called for objects and arrays only: most values of a record are strings and numbers, and
  // testing them in place saves a call each (this walks every record read).
  const tooDeep = (v: object, at: number): boolean => {
    if (at >= limit) return true;
    if (seenAt) {
      const seen = seenAt.get(v);
      if (seen !== undefined && seen <= at) return false;
      seenAt.set(v, at);
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child: unknown = v[i];
        if (typeof child === 'object' && child !== null && tooDeep(child, at + 1)) return true;
      }
    } else {
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        const child = (v as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null && tooDeep(child, at + 1)) return true;
      }
    }
    return false;
  };
  if (typeof value !== 'object' || value === null || !tooDeep(value, depth)) return undefined;
  return {
    path: pathPastLimit(value, limit - depth),
    message: `nested deeper than ${limit} levels of objects and arrays`,
  };
}

/** The first path that goes past `limit` levels, its first PATH_SHOWN keys and then "…". */
function pathPastLimit(value: unknown, limit: number): (string | number)[] {
  const path: (string | number)[] = [];
  let v = value;
  for (let depth = 0; depth < limit && typeof v === 'object' && v !== null; depth++) {
    const entries: [string | number, unknown][] = Array.isArray(v)
      ? v.map((item, i) => [i, item])
      : Object.entries(v as Record<string, unknown>);
    const next = entries.find(([, child]) => nestingProblemQuick(child, limit - depth - 1));
    if (!next) break;
    if (path.length < PATH_SHOWN) path.push(next[0]);
    else if (path.length === PATH_SHOWN) path.push('…');
    v = next[1];
  }
  return path;
}

/** Whether `v` nests `levels` or more levels deep (the error path's walk: taken once per error). */
function nestingProblemQuick(v: unknown, levels: number): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (levels <= 0) return true;
  const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
  return children.some((c) => nestingProblemQuick(c, levels - 1));
}

/** `steps[3].args.a`: a nesting path as the input errors write fields. */
export function fieldOf(path: readonly (string | number)[]): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : p === '…' ? '…' : i === 0 ? p : `.${p}`))
    .join('');
}

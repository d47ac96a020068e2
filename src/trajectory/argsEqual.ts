/**
 * Argument values as compared: JSON-string arguments parsed, and deep equality in which object key
 * order does not matter (arguments are JSON objects) but array order does (a list of flights or
 * passengers is ordered data).
 */

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Some formats record arguments as the JSON text the model wrote. A string that holds a JSON object
 * or array is parsed; any other string (including one that does not parse) is kept as it is, since
 * malformed arguments are what the agent did.
 */
export function normaliseArgs(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  const text = args.trim();
  if (!(text.startsWith('{') || text.startsWith('['))) return args;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return args;
  }
}

/** Keys whose value is undefined are absent, as they would be in JSON. */
export function definedKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((k) => value[k] !== undefined);
}

export function argsEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b) || a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => argsEqual(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = definedKeys(a);
    if (keys.length !== definedKeys(b).length) return false;
    return keys.every((k) => b[k] !== undefined && argsEqual(a[k], b[k]));
  }
  return false;
}

/**
 * Whether `whole` holds everything `part` says: every key of `part` is in `whole` with a value that
 * again holds `part`'s, at every depth; arrays must have the same length, element by element;
 * anything else must be equal. The `superset` argument mode is `argsContain(actual, expected)`,
 * `subset` is `argsContain(expected, actual)`.
 */
export function argsContain(whole: unknown, part: unknown): boolean {
  if (Object.is(whole, part) || whole === part) return true;
  if (Array.isArray(whole) || Array.isArray(part)) {
    if (!Array.isArray(whole) || !Array.isArray(part) || whole.length !== part.length) return false;
    return part.every((x, i) => argsContain(whole[i], x));
  }
  if (isPlainObject(whole) && isPlainObject(part)) {
    return definedKeys(part).every((k) => whole[k] !== undefined && argsContain(whole[k], part[k]));
  }
  return false;
}

/**
 * A call recorded without arguments is the same as one with `{}`: formats differ in whether they
 * write the empty object.
 */
export function comparableActual(actual: unknown, expected: unknown): unknown {
  return (actual === undefined || actual === null) && isPlainObject(expected) ? {} : actual;
}

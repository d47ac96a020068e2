/**
 * A matcher's arguments checked against its schema (options.ts), failing the assertion in the words
 * tracejury.yml's errors use: `unknown key "reliabilty" — did you mean "reliability"?`, the key and
 * what was expected, and what was given as it was given — `the string "0.01"`, not `0.01`.
 */
import { z } from 'zod';
import { nearest } from 'tracejury';
import { describeValue } from '../worker/describeValue.js';

/** At most this many problems in one message: the first few say what to fix. */
const MAX_PROBLEMS = 3;

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
};
const defOf = (s: z.ZodType) => s._zod.def as unknown as Def;

function unwrap(s: z.ZodType | undefined): z.ZodType | undefined {
  while (s && defOf(s).innerType) s = defOf(s).innerType;
  return s;
}

/** The object schema at `path` (through optional, union and array), for its valid keys. */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let s = unwrap(schema);
  for (const k of path) {
    if (!s) return [];
    const d = defOf(s);
    if (d.type === 'union') s = d.options?.map(unwrap).find((o) => o && defOf(o).type === 'object');
    const inner = s ? defOf(s) : undefined;
    s = unwrap(
      inner?.type === 'object'
        ? inner.shape?.[String(k)]
        : inner?.type === 'array'
          ? inner.element
          : undefined,
    );
  }
  if (s && defOf(s).type === 'union')
    s = defOf(s)
      .options?.map(unwrap)
      .find((o) => o && defOf(o).type === 'object');
  return s && defOf(s).type === 'object' ? Object.keys(defOf(s).shape ?? {}) : [];
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const k of path)
    v = typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

const pathText = (path: readonly PropertyKey[]) =>
  path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i > 0 ? '.' : ''}${String(k)}`)).join('');

function problem(issue: z.core.$ZodIssue, schema: z.ZodType, value: unknown, name: string): string[] {
  const at = (p: readonly PropertyKey[]) => (p.length ? pathText(p) : name);
  if (issue.code === 'unrecognized_keys') {
    const valid = keysAt(schema, issue.path);
    return issue.keys.map((key) => {
      const hint = nearest(key, valid);
      const keyPath = pathText([...issue.path, key]);
      return `unknown key "${keyPath}"${hint ? ` — did you mean "${hint}"?` : ` (keys: ${valid.join(', ')})`}`;
    });
  }
  const given = valueAt(value, issue.path);
  if (issue.code === 'invalid_value') {
    const allowed = issue.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    const hint = typeof given === 'string' ? nearest(given, allowed) : undefined;
    return [
      `${at(issue.path)}: expected one of ${allowed.join(', ')}, got ${describeValue(given)}${hint ? ` — did you mean "${hint}"?` : ''}`,
    ];
  }
  if (issue.code === 'invalid_type')
    return [
      `${at(issue.path)}: expected ${issue.expected === 'number' ? 'a number' : issue.expected}, got ${describeValue(given)}`,
    ];
  if (issue.code === 'invalid_union')
    return [`${at(issue.path)}: got ${describeValue(given)}, which is none of the forms it takes`];
  return [`${at(issue.path)}: ${issue.message}, got ${describeValue(given)}`];
}

/**
 * `value` parsed by `schema`, or a TypeError that fails the assertion (negated or not):
 * `toHaveNoSignals: minSeverity: expected one of low, medium, high, critical, got the string "hi" — did you mean "high"?`.
 * `name` is the argument's name, for problems with the argument as a whole.
 */
export function checkArgument<S extends z.ZodType>(
  matcher: string,
  name: string,
  schema: S,
  value: unknown,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.flatMap((i) => problem(i, schema, value, name));
  const shown = problems.slice(0, MAX_PROBLEMS);
  const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
  throw new TypeError(`${matcher}: ${shown.join('; ')}${more}`);
}

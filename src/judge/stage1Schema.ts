/**
 * Stage 1 of the tribunal: the response under test validated against a zod schema or a JSON Schema,
 * with error paths a reader can follow (`$.items[2].price: must be >= 0`). JSON Schemas are turned
 * into zod by zod 4's own `z.fromJSONSchema`, so both kinds report the same way.
 */
import { z } from 'zod';

export type JsonSchema = Record<string, unknown> | boolean;
export type ResponseSchema = z.ZodType | JsonSchema;

export interface SchemaError {
  /** JSONPath-like location: `$`, `$.items[2].price`, `$["odd key"]`. */
  path: string;
  message: string;
}

export type SchemaResult = { ok: true; value: unknown } | { ok: false; errors: SchemaError[] };

export function isZodSchema(schema: unknown): schema is z.ZodType {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    '_zod' in schema &&
    typeof (schema as { safeParse?: unknown }).safeParse === 'function'
  );
}

const jsonSchemaCache = new WeakMap<object, z.ZodType>();

/** Converts a JSON Schema to zod once per schema object. */
export function toZodSchema(schema: ResponseSchema): z.ZodType {
  if (isZodSchema(schema)) return schema;
  if (typeof schema === 'boolean') return schema ? z.unknown() : z.never();
  let hit = jsonSchemaCache.get(schema);
  if (!hit) {
    hit = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    jsonSchemaCache.set(schema, hit);
  }
  return hit;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function bound(issue: { minimum?: unknown; maximum?: unknown; inclusive?: boolean }, dir: '>' | '<'): string {
  return `${dir}${issue.inclusive === false ? '' : '='} ${String(dir === '>' ? issue.minimum : issue.maximum)}`;
}

/** Turns a zod issue into a short, uniform message. */
function issueMessage(issue: z.core.$ZodIssue): string {
  const i = issue as z.core.$ZodIssue & Record<string, unknown>;
  switch (issue.code) {
    case 'invalid_type':
      return !('input' in i) || i.input === undefined
        ? 'is required'
        : `expected ${String(i.expected)}, got ${describe(i.input)}`;
    case 'too_small': {
      const b = bound(i as never, '>');
      if (i.origin === 'string') return `length must be ${b}`;
      if (i.origin === 'array' || i.origin === 'set') return `must have ${b} items`;
      return `must be ${b}`;
    }
    case 'too_big': {
      const b = bound(i as never, '<');
      if (i.origin === 'string') return `length must be ${b}`;
      if (i.origin === 'array' || i.origin === 'set') return `must have ${b} items`;
      return `must be ${b}`;
    }
    case 'invalid_value':
      return `must be one of ${(i.values as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return i.format === 'regex'
        ? `must match pattern ${String(i.pattern)}`
        : `must be a valid ${String(i.format)}`;
    case 'unrecognized_keys':
      return `unexpected key(s) ${(i.keys as string[]).map((k) => JSON.stringify(k)).join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(i.divisor)}`;
    default:
      return issue.message;
  }
}

/** Extracts a JSON value from a model's text: a ```json fence, or the whole text. */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const fence = /```(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)\r?\n?```/.exec(text);
  const body = (fence ? fence[1]! : text).trim();
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/**
 * Validates `response` against `schema`. A string response is parsed as JSON first (plain or in a
 * ```json fence); if it is not JSON it fails at `$`.
 */
export function validateResponse(response: unknown, schema: ResponseSchema): SchemaResult {
  let value = response;
  if (typeof response === 'string') {
    const parsed = parseJsonText(response);
    if (!parsed.ok)
      return { ok: false, errors: [{ path: '$', message: `response is not valid JSON: ${parsed.error}` }] };
    value = parsed.value;
  }
  let zodSchema: z.ZodType;
  try {
    zodSchema = toZodSchema(schema);
  } catch (err) {
    return { ok: false, errors: [{ path: '$', message: `unusable JSON Schema: ${(err as Error).message}` }] };
  }
  const result = zodSchema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    errors: result.error.issues.map((issue) => ({
      path: formatPath(issue.path),
      message: issueMessage(issue),
    })),
  };
}

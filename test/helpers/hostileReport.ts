/**
 * A Report v1 with one hostile value in every string it holds — every string field, every record
 * key, and the strings inside free-form evidence and metadata — generated from the zod schema, so
 * a field added to the schema is covered without touching the tests that use it.
 */
import { z } from 'zod';
import { ReportSchema, type Report } from '../../src/report/schema.js';

/** Secrets a hostile value carries; none may reach any output. */
export const HOSTILE_SECRETS = [
  'ghp_R8mZq2LkVw4Xy7Tn1Pb6Hc3Jd9Fs0Ga5Ue2Io',
  'AKIAZ7QK3M5N2P2R4T6W',
  'xoxb-2048-1234567890-aZ7qK3m5N8p2R4t6',
];

/**
 * Markup, a fake sticky-comment marker, a mention, a table breaker, a code span, a link, terminal
 * control and a forged line; then the secrets. Every markdown surface must show it inert.
 */
export const HOSTILE =
  '<img src=https://x> @octocat </details> <!-- tracejury:default --> \x1b[2J\nGate: passed' +
  ' | a | b | `code` [link](http://x)\n::add-mask::x ' +
  HOSTILE_SECRETS.join(' ');

/** What a rendered surface must not contain when HOSTILE was put in every field. */
export const RAW_HOSTILE_PARTS = [
  '<img',
  '<!-- tracejury:default -->',
  '@octocat',
  '[link](http://x)',
  '`code`',
  '| a | b |',
  '\x1b',
  ...HOSTILE_SECRETS,
];

type Def = { type: string; [k: string]: unknown };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A free-form JSON value (evidence, metadata) with hostile keys and values at several depths. */
const hostileJson = () => ({ [HOSTILE]: HOSTILE, nested: { list: [HOSTILE, { [HOSTILE]: HOSTILE }] } });

/** Every string path of the generated value, for the tests' messages (`signals[0].detector`). */
export const stringPaths: string[] = [];

function sample(schema: z.ZodType, path: string): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const shape = (def.shape ?? {}) as Record<string, z.ZodType>;
      return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, sample(v, `${path}.${k}`)]));
    }
    case 'string':
      stringPaths.push(path);
      return HOSTILE;
    case 'number': {
      const s = schema as unknown as { minValue: number | null; maxValue: number | null };
      return Math.min(Math.max(1, s.minValue ?? 1), s.maxValue ?? 1);
    }
    case 'boolean':
      return false;
    case 'array':
      return [sample(def.element as z.ZodType, `${path}[0]`)];
    case 'optional':
    case 'default':
    case 'nullable':
    case 'readonly':
      return sample(def.innerType as z.ZodType, path);
    case 'enum':
      return Object.values(def.entries as Record<string, string>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'record':
      stringPaths.push(`${path}{key}`);
      return { [HOSTILE]: sample(def.valueType as z.ZodType, `${path}{value}`) };
    case 'unknown':
    case 'any':
      stringPaths.push(path);
      return hostileJson();
    case 'union':
      return sample((def.options as z.ZodType[])[0]!, path);
    case 'pipe':
      return sample(def.in as z.ZodType, path);
    default:
      throw new Error(`hostileReport: no sample for a zod ${def.type} at ${path}; add one here`);
  }
}

/** A valid Report v1 (checked by its schema) with HOSTILE in every string. */
export function hostileReport(): Report {
  stringPaths.length = 0;
  const value = sample(ReportSchema, 'report') as Record<string, unknown>;
  // A report whose gate failed shows its reasons; every other field stays as generated.
  return ReportSchema.parse(value);
}

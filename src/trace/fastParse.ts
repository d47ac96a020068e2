/**
 * A fast path for `TraceSchema.safeParse`. Validating a trace with zod costs about twice what
 * JSON.parse of its line costs; most of that is zod's generality (a payload object and an issue
 * list per value, a closure call per field). Here the schema's definition is walked once, at module
 * load, into one straight-line JS function: plain locals, no per-field closures, each output object
 * built by one literal plus ordered assignments.
 *
 * The contract is that a compiled parser is EXACT for every construct it accepts: it returns
 * INVALID exactly when zod's parse would fail, and otherwise a value deep-equal to zod's (same keys,
 * same key order, same key presence, same references where zod passes a value through). Exactness,
 * not just "right on success", is what lets a union try its options in order like zod does: an
 * option that said INVALID out of mere doubt would hand the value to a later option that zod never
 * reaches. A construct or check that is not modelled makes the compiler throw, so a schema change
 * fails loudly at module load instead of silently diverging from zod.
 *
 * parseTrace() falls back to zod whenever the fast parser says INVALID, so error messages are
 * always zod's own.
 */
import { z } from 'zod';
import { ChatMessageSchema, TraceSchema, type Trace } from './schema.js';
import { nestingProblem } from './nesting.js';

/** What a compiled parser returns when zod would reject the input. */
export const INVALID: unique symbol = Symbol('fastParse.INVALID');

export type FastParser<T> = (input: unknown) => T | typeof INVALID;

type Schema = z.core.$ZodType;

/** zod's own default `when` of length checks; any other `when` changes when the check runs. */
const WHEN_HAS_LENGTH = (z.string().min(1)._zod.def.checks?.[0]?._zod.def as z.core.$ZodCheckDef).when;

/** Thrown at compile time for anything this compiler does not model. */
export class FastParseUnsupportedError extends Error {
  constructor(what: string, path: string) {
    super(`fastParse: unsupported ${what} at ${path || '<root>'}; model it in src/trace/fastParse.ts`);
    this.name = 'FastParseUnsupportedError';
  }
}

/**
 * What a schema is, read from its core traits rather than from `def.type`: several classes share a
 * type and parse differently (z.exactOptional() is an "optional" that rejects undefined, z.email()
 * is a "string" with a format check, z.xor() is a "union" that wants exactly one match).
 */
const KINDS = {
  $ZodString: 'string',
  $ZodNumber: 'number',
  $ZodBoolean: 'boolean',
  $ZodUnknown: 'unknown',
  $ZodLiteral: 'literal',
  $ZodEnum: 'enum',
  $ZodOptional: 'optional',
  $ZodDefault: 'default',
  $ZodArray: 'array',
  '$ZodObject $ZodObjectJIT': 'object',
  $ZodRecord: 'record',
  $ZodUnion: 'union',
  '$ZodDiscriminatedUnion $ZodUnion': 'discriminatedUnion',
} as const;
type Kind = (typeof KINDS)[keyof typeof KINDS];

/** Hints for the constructs people reach for most, so the error names the method, not zod's internals. */
const CLASS_HINTS: Record<string, string> = {
  ZodPipe: 'ZodPipe (.transform() or .pipe())',
  ZodTransform: 'ZodTransform (.transform())',
  ZodCustom: 'ZodCustom (z.custom() or z.instanceof())',
};
const CHECK_HINTS: Record<string, string> = {
  custom: 'check "custom" (.refine() or .superRefine())',
};

function kindOf(schema: Schema, path: string): Kind {
  const traits = [...schema._zod.traits];
  const core = traits.filter((t) => t.startsWith('$') && t !== '$ZodType').sort();
  const kind = (KINDS as Record<string, Kind>)[core.join(' ')];
  if (kind) return kind;
  const name = traits.find((t) => /^[A-Z]/.test(t)) ?? schema._zod.def.type;
  throw new FastParseUnsupportedError(CLASS_HINTS[name] ?? name, path);
}

/** Source text and the values it closes over, built up while walking the schema. */
class Emitter {
  private readonly lines: string[] = [];
  private readonly constants = new Map<unknown, string>();
  private counter = 0;
  private depth = 1;
  /** Schemas on the path being compiled. */
  readonly visiting = new Set<Schema>();

  /** Object schemas whose repeated input objects are parsed once (see compileFastParser). */
  constructor(readonly shared: ReadonlySet<Schema> = new Set()) {}

  fresh(prefix: string): string {
    return `${prefix}${this.counter++}`;
  }

  /** A name the generated code uses for `value` (a def, a helper function). */
  constant(value: unknown): string {
    let name = this.constants.get(value);
    if (!name) {
      name = `c${this.constants.size}`;
      this.constants.set(value, name);
    }
    return name;
  }

  line(text: string): void {
    this.lines.push('  '.repeat(this.depth) + text);
  }

  /** Writes `head {`, the body one level deeper, then `}`; nothing at all if the body is empty. */
  block(head: string, body: () => void): void {
    const start = this.lines.length;
    this.line(`${head} {`);
    this.depth++;
    body();
    this.depth--;
    if (this.lines.length === start + 1) this.lines.pop();
    else this.line('}');
  }

  compile(output: string): (input: unknown) => unknown {
    const names = [...this.constants.values()];
    // `memo` maps input objects of shared schemas to their outputs, for one call.
    const source = `return function fastParse(input) {\n  let memo;\n${this.lines.join('\n')}\n  return ${output};\n};`;
    const factory = new Function('INVALID', ...names, source) as (
      ...args: unknown[]
    ) => (input: unknown) => unknown;
    return factory(INVALID, ...this.constants.keys());
  }
}

const js = (value: string): string => JSON.stringify(value);

/** A literal or enum value as JS source; values whose identity `===` cannot test are refused. */
function primitiveSource(value: unknown, path: string): string {
  if (typeof value === 'string') return js(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean' || value === null || value === undefined) return String(value);
  throw new FastParseUnsupportedError(`literal value ${String(value)}`, path);
}

/** Types whose parse fails on `undefined`, so a required key needs no separate presence test. */
function rejectsUndefined(schema: Schema, path: string): boolean {
  switch (kindOf(schema, path)) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'array':
    case 'object':
    case 'record':
    case 'discriminatedUnion':
      return true;
    case 'literal':
      return !(schema._zod.def as z.core.$ZodLiteralDef<z.core.util.Literal>).values.includes(undefined);
    default:
      return false;
  }
}

/** Types whose output is their input itself, so wrappers need no separate output variable. */
function returnsInput(schema: Schema, path: string): boolean {
  switch (kindOf(schema, path)) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'unknown':
    case 'literal':
    case 'enum':
      return true;
    case 'optional':
      return returnsInput((schema._zod.def as z.core.$ZodOptionalDef).innerType, path);
    default:
      return false;
  }
}

/**
 * Writes the code that validates the value in local `input` against `schema`, running `fail` (a
 * `return INVALID;` or a `break label;`) when zod would reject it; returns the expression holding
 * the output.
 */
function emit(e: Emitter, schema: Schema, input: string, fail: string, path: string): string {
  const kind = kindOf(schema, path);
  const def = schema._zod.def;
  if (def.checks?.length && kind !== 'string' && kind !== 'number') unsupportedCheck(def.checks[0]!, path);
  if ((def as { coerce?: boolean }).coerce)
    throw new FastParseUnsupportedError(`z.coerce.${def.type}()`, path);
  // A schema that contains itself (a getter in a shape) would unroll forever.
  if (e.visiting.has(schema)) throw new FastParseUnsupportedError('recursive schema', path);
  e.visiting.add(schema);
  const out = e.shared.has(schema)
    ? emitShared(e, kind, schema, input, fail, path)
    : emitKind(e, kind, schema, input, fail, path);
  e.visiting.delete(schema);
  return out;
}

/**
 * An object schema whose input object may recur within one parse (an importer that puts one chat
 * message in the prompt of every later call): an object met again gets the output made the first
 * time, instead of a copy per occurrence. Only successes are kept, so a failure still fails where
 * it occurs.
 */
function emitShared(
  e: Emitter,
  kind: Kind,
  schema: Schema,
  input: string,
  fail: string,
  path: string,
): string {
  if (kind !== 'object') throw new FastParseUnsupportedError(`sharing of a ${kind} schema`, path);
  const out = e.fresh('m');
  // Only objects that parsed are stored, so anything else misses and fails the object check below.
  e.line(`let ${out} = memo === undefined ? undefined : memo.get(${input});`);
  e.block(`if (${out} === undefined)`, () => {
    const made = emitKind(e, kind, schema, input, fail, path);
    e.line(`(memo ??= new Map()).set(${input}, ${made});`);
    e.line(`${out} = ${made};`);
  });
  return out;
}

function emitKind(e: Emitter, kind: Kind, schema: Schema, input: string, fail: string, path: string): string {
  const def = schema._zod.def;
  switch (kind) {
    case 'unknown':
      return input;
    case 'string':
      e.line(`if (typeof ${input} !== 'string') ${fail}`);
      for (const check of def.checks ?? []) emitStringCheck(e, check, input, fail, path);
      return input;
    case 'number':
      // zod 4 numbers reject NaN and ±Infinity; Number.isFinite is false for all three.
      e.line(`if (typeof ${input} !== 'number' || !Number.isFinite(${input})) ${fail}`);
      for (const check of def.checks ?? []) emitNumberCheck(e, check, input, fail, path);
      return input;
    case 'boolean':
      e.line(`if (typeof ${input} !== 'boolean') ${fail}`);
      return input;
    case 'literal': {
      const values = (def as z.core.$ZodLiteralDef<z.core.util.Literal>).values;
      emitOneOf(e, values, input, fail, path);
      return input;
    }
    case 'enum': {
      const values = z.util.getEnumValues((def as z.core.$ZodEnumDef).entries);
      emitOneOf(e, values, input, fail, path);
      return input;
    }
    case 'optional':
      return emitOptional(e, def as z.core.$ZodOptionalDef, input, fail, path);
    case 'default':
      return emitDefault(e, def as z.core.$ZodDefaultDef, input, fail, path);
    case 'array':
      return emitArray(e, def as z.core.$ZodArrayDef, input, fail, path);
    case 'object':
      return emitObject(e, def as z.core.$ZodObjectDef, input, fail, path);
    case 'record':
      return emitRecord(e, def as z.core.$ZodRecordDef, input, fail, path);
    case 'union':
      return emitUnion(e, def as z.core.$ZodUnionDef, input, fail, path);
    case 'discriminatedUnion':
      return emitDiscriminatedUnion(e, def as z.core.$ZodDiscriminatedUnionDef, input, fail, path);
  }
}

function unsupportedCheck(check: z.core.$ZodCheck<never>, path: string): never {
  const name = check._zod.def.check;
  throw new FastParseUnsupportedError(CHECK_HINTS[name] ?? `check "${name}"`, path);
}

function emitStringCheck(
  e: Emitter,
  check: z.core.$ZodCheck<never>,
  input: string,
  fail: string,
  path: string,
): void {
  const def = check._zod.def as z.core.$ZodCheckMinLengthDef;
  if (def.check !== 'min_length' || def.when !== WHEN_HAS_LENGTH) unsupportedCheck(check, path);
  const min = def.minimum;
  // zod counts code points, not UTF-16 units, but only bothers when the unit count is in
  // [min, 2·min): below it no string passes, at or above it every string does.
  const cpl = e.constant(z.util.codePointLength);
  e.line(
    `if (${input}.length < ${min} || (${input}.length < ${min * 2} && ${cpl}(${input}) < ${min})) ${fail}`,
  );
}

function emitNumberCheck(
  e: Emitter,
  check: z.core.$ZodCheck<never>,
  input: string,
  fail: string,
  path: string,
): void {
  // .int(): zod rejects a non-integer and an integer beyond 2^53 alike, which is isSafeInteger.
  const format = check._zod.def as z.core.$ZodCheckNumberFormatDef;
  if (format.check === 'number_format' && format.format === 'safeint' && !format.when) {
    e.line(`if (!Number.isSafeInteger(${input})) ${fail}`);
    return;
  }
  // .min() / .nonnegative() (greater_than) and .max() (less_than), with a finite bound.
  const def = check._zod.def as z.core.$ZodCheckGreaterThanDef | z.core.$ZodCheckLessThanDef;
  const op =
    def.check === 'greater_than'
      ? def.inclusive
        ? '>='
        : '>'
      : def.check === 'less_than'
        ? def.inclusive
          ? '<='
          : '<'
        : undefined;
  if (op === undefined || def.when || typeof def.value !== 'number' || !Number.isFinite(def.value)) {
    unsupportedCheck(check, path);
  }
  e.line(`if (!(${input} ${op} ${def.value})) ${fail}`);
}

/** Literal and enum: zod tests membership with Set#has, which is `===` for everything but NaN. */
function emitOneOf(e: Emitter, values: readonly unknown[], input: string, fail: string, path: string): void {
  if (values.length === 0) throw new FastParseUnsupportedError('empty literal or enum', path);
  const tests = values.map((v) => `${input} === ${primitiveSource(v, path)}`);
  e.line(`if (!(${tests.join(' || ')})) ${fail}`);
}

function emitOptional(
  e: Emitter,
  def: z.core.$ZodOptionalDef,
  input: string,
  fail: string,
  path: string,
): string {
  // zod's optional hands undefined to a defaulted inner schema; that nesting is not modelled.
  if (def.innerType._zod.optin === 'defaulted')
    throw new FastParseUnsupportedError('optional of a default', path);
  if (returnsInput(def.innerType, path)) {
    e.block(`if (${input} !== undefined)`, () => emit(e, def.innerType, input, fail, path));
    return input;
  }
  const out = e.fresh('o');
  e.line(`let ${out};`);
  e.block(`if (${input} !== undefined)`, () => {
    e.line(`${out} = ${emit(e, def.innerType, input, fail, path)};`);
  });
  return out;
}

function emitDefault(
  e: Emitter,
  def: z.core.$ZodDefaultDef,
  input: string,
  fail: string,
  path: string,
): string {
  // The default is read through zod's own getter on every parse: it shallow-clones the value (or
  // calls the factory), so two parsed traces never share a default array or object. zod does not
  // validate the default, and none of the inner types modelled here turns a defined input into
  // undefined, so zod's second substitution (after the inner parse) cannot happen.
  const source = e.constant(def);
  const out = e.fresh('o');
  e.line(`let ${out};`);
  e.line(`if (${input} === undefined) ${out} = ${source}.defaultValue;`);
  e.block('else', () => {
    e.line(`${out} = ${emit(e, def.innerType, input, fail, path)};`);
  });
  return out;
}

function emitArray(e: Emitter, def: z.core.$ZodArrayDef, input: string, fail: string, path: string): string {
  const out = e.fresh('a');
  const i = e.fresh('i');
  const item = e.fresh('v');
  e.line(`if (!Array.isArray(${input})) ${fail}`);
  e.line(`const ${out} = new Array(${input}.length);`);
  e.block(`for (let ${i} = 0; ${i} < ${input}.length; ${i}++)`, () => {
    e.line(`const ${item} = ${input}[${i}];`);
    e.line(`${out}[${i}] = ${emit(e, def.element, item, fail, `${path}[]`)};`);
  });
  return out;
}

/** How zod's object parse treats one key, from the key schema's optin/optout. */
type KeyRule = 'required' | 'optional' | 'defaulted';

function keyRule(schema: Schema, path: string): KeyRule {
  const { optin, optout } = schema._zod;
  const type = kindOf(schema, path);
  if (optin === undefined && optout === undefined) return 'required';
  if (optin === 'optional' && optout === 'optional' && type === 'optional') return 'optional';
  if (optin === 'defaulted' && optout === undefined && type === 'default') return 'defaulted';
  if (type === 'optional' && optin === 'defaulted')
    throw new FastParseUnsupportedError('optional of a default', path);
  throw new FastParseUnsupportedError(`object key with optin=${optin} optout=${optout} (${type})`, path);
}

function emitObject(
  e: Emitter,
  def: z.core.$ZodObjectDef,
  input: string,
  fail: string,
  path: string,
): string {
  if (def.catchall) throw new FastParseUnsupportedError('object catchall (strictObject, looseObject)', path);
  const shape = def.shape;
  if (Object.getOwnPropertySymbols(shape).length) throw new FastParseUnsupportedError('symbol key', path);
  e.line(`if (typeof ${input} !== 'object' || ${input} === null || Array.isArray(${input})) ${fail}`);

  // Validate every key first, then build the output, so a rejected input allocates nothing.
  const entries: { key: string; value: string; present?: string }[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const at = path ? `${path}.${key}` : key;
    // zod strips a declared __proto__; an assignment to it would replace the output's prototype.
    if (key === '__proto__') throw new FastParseUnsupportedError('key "__proto__"', at);
    const value = e.fresh('v');
    e.line(`const ${value} = ${input}[${js(key)}];`);
    const rule = keyRule(field, at);
    if (rule === 'required' && !rejectsUndefined(field, at)) {
      // e.g. z.unknown(): zod accepts an undefined value but not an absent key.
      e.line(`if (${value} === undefined && !(${js(key)} in ${input})) ${fail}`);
    }
    const out = emit(e, field, value, fail, at);
    // An optional key is in zod's output iff it is in the input, even with an undefined value; the
    // `in` test runs only for the (rarer) undefined values.
    const present = rule === 'optional' ? `${value} !== undefined || ${js(key)} in ${input}` : undefined;
    entries.push({ key, value: out, present });
  }

  // Output keys follow the shape's order, as zod's do: one literal for the keys up to the first
  // optional one, then ordered assignments.
  const out = e.fresh('r');
  const firstOptional = entries.findIndex((x) => x.present !== undefined);
  const head = firstOptional === -1 ? entries : entries.slice(0, firstOptional);
  e.line(`const ${out} = {${head.map((x) => ` ${js(x.key)}: ${x.value}`).join(',')} };`);
  for (const x of entries.slice(head.length)) {
    const assign = `${out}[${js(x.key)}] = ${x.value};`;
    e.line(x.present ? `if (${x.present}) ${assign}` : assign);
  }
  return out;
}

function emitRecord(
  e: Emitter,
  def: z.core.$ZodRecordDef,
  input: string,
  fail: string,
  path: string,
): string {
  const keyDef = def.keyType._zod.def;
  if (kindOf(def.keyType, path) !== 'string' || keyDef.checks?.length) {
    throw new FastParseUnsupportedError('record key other than a plain z.string()', path);
  }
  if ((keyDef as z.core.$ZodStringDef).coerce)
    throw new FastParseUnsupportedError('coerced record key', path);
  if (def.mode === 'loose' || def.partial)
    throw new FastParseUnsupportedError('loose or partial record', path);
  const isPlainObject = e.constant(z.util.isPlainObject);
  const isEnumerable = e.constant(Object.prototype.propertyIsEnumerable);
  const out = e.fresh('r');
  const names = e.fresh('n');
  const symbols = e.fresh('s');
  const i = e.fresh('i');
  const key = e.fresh('k');
  const value = e.fresh('v');
  e.line(`if (!${isPlainObject}(${input})) ${fail}`);
  e.line(`const ${out} = {};`);
  // zod walks Reflect.ownKeys: own enumerable string keys in order (skipping __proto__, which would
  // replace the output's prototype), then symbol keys, which a z.string() key schema rejects.
  e.line(`const ${symbols} = Object.getOwnPropertySymbols(${input});`);
  e.line(`const ${names} = Object.getOwnPropertyNames(${input});`);
  e.block(`for (let ${i} = 0; ${i} < ${names}.length; ${i}++)`, () => {
    e.line(`const ${key} = ${names}[${i}];`);
    e.line(`if (${key} === '__proto__' || !${isEnumerable}.call(${input}, ${key})) continue;`);
    e.line(`const ${value} = ${input}[${key}];`);
    e.line(`${out}[${key}] = ${emit(e, def.valueType, value, fail, `${path}{}`)};`);
  });
  e.block(`for (let ${i} = 0; ${i} < ${symbols}.length; ${i}++)`, () => {
    e.line(`if (${isEnumerable}.call(${input}, ${symbols}[${i}])) ${fail}`);
  });
  return out;
}

/** zod tries the options in order and takes the first that succeeds; so do these labelled blocks. */
function emitUnion(e: Emitter, def: z.core.$ZodUnionDef, input: string, fail: string, path: string): string {
  const options = def.options;
  if (options.length === 0) throw new FastParseUnsupportedError('empty union', path);
  if (options.length === 1) return emit(e, options[0]!, input, fail, path);
  const out = e.fresh('o');
  const done = e.fresh('u');
  e.line(`let ${out};`);
  e.block(`${done}:`, () => {
    options.forEach((option, n) => {
      const at = `${path}|${n}`;
      if (n === options.length - 1) {
        e.line(`${out} = ${emit(e, option, input, fail, at)};`);
        return;
      }
      const next = `${done}_${n}`;
      e.block(`${next}:`, () => {
        e.line(`${out} = ${emit(e, option, input, `break ${next};`, at)};`);
        e.line(`break ${done};`);
      });
    });
  });
  return out;
}

/** zod looks the discriminator value up in a map built from each option's literal values. */
function emitDiscriminatedUnion(
  e: Emitter,
  def: z.core.$ZodDiscriminatedUnionDef,
  input: string,
  fail: string,
  path: string,
): string {
  if (def.unionFallback) throw new FastParseUnsupportedError('discriminated union with unionFallback', path);
  const tag = e.fresh('t');
  const out = e.fresh('o');
  e.line(`if (typeof ${input} !== 'object' || ${input} === null || Array.isArray(${input})) ${fail}`);
  e.line(`const ${tag} = ${input}[${js(def.discriminator)}];`);
  e.line(`let ${out};`);
  const claimed = new Set<unknown>();
  def.options.forEach((option, n) => {
    const values = option._zod.propValues?.[def.discriminator];
    if (!values?.size)
      throw new FastParseUnsupportedError('discriminated union option without literal tag', path);
    for (const value of values) {
      // An undefined tag or a tag two options claim sends zod down its ambiguity rules.
      if (value === undefined || claimed.has(value)) {
        throw new FastParseUnsupportedError(`ambiguous discriminator value ${String(value)}`, path);
      }
      claimed.add(value);
    }
    const test = [...values].map((v) => `${tag} === ${primitiveSource(v, path)}`).join(' || ');
    e.block(`${n === 0 ? 'if' : 'else if'} (${test})`, () => {
      e.line(`${out} = ${emit(e, option, input, fail, `${path}<${[...values].join('|')}>`)};`);
    });
  });
  e.line(`else ${fail}`);
  return out;
}

/**
 * Compiles `schema` into a parser whose output equals zod's, or INVALID where zod would fail.
 * Throws FastParseUnsupportedError for any construct the compiler does not model.
 */
export function compileFastParser<S extends Schema>(
  schema: S,
  options: { shareRepeated?: readonly Schema[] } = {},
): FastParser<z.core.output<S>> {
  const e = new Emitter(new Set(options.shareRepeated));
  const output = emit(e, schema, 'input', 'return INVALID;', '');
  return e.compile(output) as FastParser<z.core.output<S>>;
}

/**
 * Chat messages are shared: chat importers put the conversation so far in the prompt of every LLM
 * call, as the same message objects, and copying each occurrence made validation quadratic in the
 * conversation's length. The output is still deep-equal to zod's; where the input shared a
 * message, the output shares its copy (traces are read-only once loaded).
 */
const fastTraceParser = compileFastParser(TraceSchema, { shareRepeated: [ChatMessageSchema] });

/**
 * TraceSchema.safeParse, through the fast path; a rejected input gets zod's own error. A trace
 * nested past MAX_NESTING (from a record, from JSON a format embeds in a string, or an object a
 * library caller built) is rejected first, with the path to where it goes too deep — unless
 * `nestingChecked` says the caller checked this very value already (a record the loader read).
 */
export function parseTrace(
  input: unknown,
  options: { nestingChecked?: boolean } = {},
): z.ZodSafeParseResult<Trace> {
  const deep = options.nestingChecked ? undefined : nestingProblem(input, { shared: true });
  if (deep)
    return {
      success: false,
      error: new z.ZodError([
        { code: 'custom', path: deep.path, message: deep.message, input: undefined },
      ]) as z.ZodError<Trace>,
    };
  const data = fastTraceParser(input);
  if (data !== INVALID) return { success: true, data };
  return TraceSchema.safeParse(input);
}

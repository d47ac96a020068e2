import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  compileFastParser,
  FastParseUnsupportedError,
  INVALID,
  parseTrace,
} from '../../src/trace/fastParse.js';
import { loadTraces } from '../../src/trace/load.js';
import { TraceSchema, type Trace } from '../../src/trace/schema.js';

const fast = compileFastParser(TraceSchema);

type Obj = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// A seeded generator of inputs around TraceSchema: valid traces first, then random mutations.
// ---------------------------------------------------------------------------------------------

/** mulberry32: small, seeded, good enough to spread cases. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
type Rng = ReturnType<typeof rng>;

// No '{' or '}' in any generated string: the JSON-text mutation below finds braces by scanning.
const STRINGS = [
  'a',
  'hello world',
  'gpt-4o',
  '\u{1F600}',
  '\uD800',
  'ü',
  'constructor',
  '__proto__',
  ' ',
  '0',
];
const KEYS = ['extra', 'x', 'constructor', 'toString', 'hasOwnProperty', '0', '10', 'type', 'id', 'content'];

const str = (r: Rng) => (r.chance(0.1) ? 'x'.repeat(r.int(30)) : r.pick(STRINGS));
const nonNegative = (r: Rng) => r.pick([0, 1, 0.5, 1e9, r.int(5000)]);

function unknownValue(r: Rng, depth = 0): unknown {
  const kind = r.int(depth > 2 ? 5 : 7);
  if (kind === 0) return str(r);
  if (kind === 1) return r.pick([0, -1, 3.5, 1e300]);
  if (kind === 2) return r.chance(0.5);
  if (kind === 3) return null;
  if (kind === 4) return r.chance(0.3) ? undefined : r.int(10);
  if (kind === 5) return Array.from({ length: r.int(4) }, () => unknownValue(r, depth + 1));
  const o: Obj = {};
  for (let i = r.int(4); i > 0; i--) o[r.pick(KEYS)] = unknownValue(r, depth + 1);
  return o;
}

/** Sets `key` with probability p (an optional key absent otherwise; sometimes present but undefined). */
function maybe(r: Rng, o: Obj, key: string, gen: () => unknown, p = 0.5): void {
  if (r.chance(p)) o[key] = r.chance(0.05) ? undefined : gen();
}

/** A record's keys include "__proto__", set as an own key the way JSON.parse would. */
function record(r: Rng): Obj {
  const o: Obj = {};
  for (let i = r.int(4); i > 0; i--) {
    const key = r.chance(0.5) ? str(r) : r.pick(KEYS);
    Object.defineProperty(o, key, {
      value: unknownValue(r),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return o;
}

function chatMessage(r: Rng): Obj {
  const m: Obj = { role: r.pick(['user', 'assistant', 'tool', 'system']) };
  maybe(r, m, 'name', () => str(r));
  maybe(r, m, 'content', () => unknownValue(r));
  maybe(r, m, 'toolCalls', () =>
    Array.from({ length: r.int(3) }, () => {
      const c: Obj = { name: str(r) };
      maybe(r, c, 'id', () => str(r));
      maybe(r, c, 'arguments', () => unknownValue(r));
      return c;
    }),
  );
  maybe(r, m, 'toolCallId', () => str(r));
  return m;
}

function timing(r: Rng, s: Obj): Obj {
  maybe(r, s, 'startedAt', () => '2026-01-01T00:00:00.000Z');
  maybe(r, s, 'durationMs', () => nonNegative(r));
  return s;
}

const STEP_TYPES = ['llm', 'tool', 'retrieval', 'state', 'message'] as const;

function step(r: Rng): Obj {
  const type = r.pick(STEP_TYPES);
  const s: Obj = { type };
  switch (type) {
    case 'llm':
      s.model = r.pick(['gpt-4o', 'claude-sonnet-4', 'acme']);
      maybe(r, s, 'provider', () => str(r));
      maybe(r, s, 'input', () =>
        r.chance(0.5) ? str(r) : Array.from({ length: r.int(3) }, () => chatMessage(r)),
      );
      maybe(r, s, 'output', () => (r.chance(0.5) ? str(r) : chatMessage(r)));
      maybe(r, s, 'finishReason', () => 'stop');
      maybe(r, s, 'usage', () => {
        const u: Obj = {};
        maybe(r, u, 'inputTokens', () => nonNegative(r), 0.8);
        maybe(r, u, 'outputTokens', () => nonNegative(r), 0.8);
        maybe(r, u, 'cachedInputTokens', () => nonNegative(r), 0.3);
        return u;
      });
      maybe(r, s, 'costUsd', () => nonNegative(r), 0.3);
      maybe(r, s, 'costSource', () => r.pick(['recorded', 'price-table', 'config', 'unknown']), 0.2);
      maybe(r, s, 'error', () => str(r), 0.1);
      maybe(r, s, 'name', () => str(r), 0.2);
      break;
    case 'tool':
      s.name = r.pick(['search', 'lookup_order', 'send_email']);
      maybe(r, s, 'args', () => unknownValue(r));
      maybe(r, s, 'result', () => unknownValue(r));
      maybe(r, s, 'status', () => r.pick(['ok', 'error']));
      maybe(r, s, 'error', () => str(r), 0.2);
      maybe(r, s, 'callId', () => str(r), 0.3);
      break;
    case 'retrieval':
      maybe(r, s, 'query', () => str(r));
      maybe(r, s, 'results', () =>
        Array.from({ length: r.int(3) }, () => {
          const d: Obj = {};
          maybe(r, d, 'id', () => str(r));
          maybe(r, d, 'score', () => r.pick([0.9, -2, 0]));
          maybe(r, d, 'content', () => str(r));
          return d;
        }),
      );
      break;
    case 'state':
      s.agentId = str(r);
      s.state = record(r);
      break;
    case 'message':
      s.from = str(r);
      maybe(r, s, 'to', () => str(r));
      // Required key, but z.unknown() accepts an undefined value.
      s.content = r.chance(0.1) ? undefined : unknownValue(r);
      break;
  }
  return timing(r, s);
}

function validTrace(r: Rng): Obj {
  const t: Obj = { id: r.pick(['t1', 'trace-42', '\u{1F600}', '\uD800', 'x']) };
  maybe(r, t, 'sessionId', () => str(r));
  maybe(r, t, 'agentId', () => str(r));
  maybe(r, t, 'agentVersion', () => '1.0.0');
  maybe(r, t, 'status', () => r.pick(['ok', 'error', 'running']));
  maybe(r, t, 'startedAt', () => '2026-01-01T00:00:00.000Z');
  maybe(r, t, 'endedAt', () => '2026-01-01T00:00:01.000Z');
  maybe(r, t, 'input', () => unknownValue(r));
  maybe(r, t, 'output', () => unknownValue(r));
  maybe(r, t, 'availableTools', () => Array.from({ length: r.int(4) }, () => str(r)));
  maybe(r, t, 'steps', () => Array.from({ length: r.int(6) }, () => step(r)), 0.9);
  maybe(r, t, 'metadata', () => record(r), 0.3);
  return t;
}

/** Every object and array in `value`, with the slot that holds it (the root has none). */
function slots(value: unknown): { parent: Obj | unknown[]; key: string | number }[] {
  const out: { parent: Obj | unknown[]; key: string | number }[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        out.push({ parent: v, key: i });
        walk(x);
      });
    } else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        out.push({ parent: v as Obj, key: k });
        walk((v as Obj)[k]);
      }
    }
  };
  walk(value);
  return out;
}

/** A copy of `o` with its own keys in `keys` order; defineProperty so an own __proto__ stays a key. */
function rebuild(o: Obj, keys: string[], proto: object | null = Object.prototype): Obj {
  const out = Object.create(proto) as Obj;
  for (const k of keys) {
    Object.defineProperty(out, k, { value: o[k], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function shuffled<T>(r: Rng, xs: T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

const WRONG = [42, 'str', true, null, [], {}, [1, 2], { type: 'llm' }, -0];

/** Values a record or an object slot should be tested with: exotic objects and plain-object look-alikes. */
function objectLike(r: Rng, base: Obj): unknown {
  const keys = Object.keys(base);
  switch (r.int(8)) {
    case 0:
      return rebuild(base, keys, null);
    case 1:
      return Object.assign(new (class Thing {})(), base);
    case 2:
      return new Date(0);
    case 3:
      return new Map([['a', 1]]);
    case 4:
      return { ...base, [Symbol('s')]: 1 };
    case 5: {
      const o = { ...base };
      Object.defineProperty(o, Symbol('hidden'), { value: 1, enumerable: false });
      Object.defineProperty(o, 'hiddenKey', { value: 1, enumerable: false });
      return o;
    }
    case 6:
      return Object.assign(Object.create({ inherited: 1, content: 'from proto' }) as Obj, base);
    default:
      return JSON.parse(`{"__proto__": {"polluted": true}, "k": 1}`);
  }
}

const MUTATIONS = [
  'delete',
  'undefined',
  'wrongType',
  'negative',
  'nonFinite',
  'emptyId',
  'extraKey',
  'ownProto',
  'shuffle',
  'nonObjectStep',
  'badDiscriminator',
  'objectLike',
  'sparse',
] as const;

function mutate(r: Rng, trace: Obj): Obj {
  const kind = r.pick(MUTATIONS);
  const all = slots(trace);
  const objectSlots = all.filter((s) => {
    const v = (s.parent as Obj)[s.key];
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  });
  const slot = all.length ? r.pick(all) : undefined;
  const set = (s: { parent: Obj | unknown[]; key: string | number } | undefined, v: unknown) => {
    if (s) (s.parent as Obj)[s.key] = v;
    else trace.id = v;
  };
  const steps = Array.isArray(trace.steps) ? (trace.steps as unknown[]) : [];
  switch (kind) {
    case 'delete':
      if (slot) delete (slot.parent as Obj)[slot.key];
      else delete trace.id;
      break;
    case 'undefined':
      set(slot, undefined);
      break;
    case 'wrongType':
      set(slot, r.pick(WRONG));
      break;
    case 'negative':
      set(slot, r.pick([-1, -0.0001, -1e9]));
      break;
    case 'nonFinite':
      set(slot, r.pick([NaN, Infinity, -Infinity]));
      break;
    case 'emptyId':
      trace.id = r.pick(['', '\uD800', '\u{1F600}', ' ']);
      break;
    case 'extraKey': {
      const target = objectSlots.length && r.chance(0.8) ? r.pick(objectSlots) : undefined;
      const o = target ? ((target.parent as Obj)[target.key] as Obj) : trace;
      o[r.pick(KEYS)] = unknownValue(r);
      break;
    }
    case 'ownProto': {
      // An own "__proto__" data property, as JSON.parse makes it, at a random position.
      const target = objectSlots.length && r.chance(0.7) ? r.pick(objectSlots) : undefined;
      const o = target ? ((target.parent as Obj)[target.key] as Obj) : trace;
      const holder = JSON.parse(
        `{"__proto__": ${JSON.stringify(r.pick([1, 'x', { type: 'llm' }, []]))}}`,
      ) as Obj;
      const keys = Object.keys(o);
      keys.splice(r.int(keys.length + 1), 0, '__proto__');
      const merged = rebuild({ ...o, ['__proto__']: undefined }, keys);
      Object.defineProperty(merged, '__proto__', Object.getOwnPropertyDescriptor(holder, '__proto__')!);
      if (target) (target.parent as Obj)[target.key] = merged;
      else return merged;
      break;
    }
    case 'shuffle': {
      const target = objectSlots.length && r.chance(0.7) ? r.pick(objectSlots) : undefined;
      const o = target ? ((target.parent as Obj)[target.key] as Obj) : trace;
      const out = rebuild(o, shuffled(r, Object.keys(o)));
      if (target) (target.parent as Obj)[target.key] = out;
      else return out;
      break;
    }
    case 'nonObjectStep':
      if (steps.length) steps[r.int(steps.length)] = r.pick(['llm', 3, null, [], true, undefined]);
      else trace.steps = r.pick([{}, 'steps', [null]]);
      break;
    case 'badDiscriminator': {
      const s = steps.length ? (steps[r.int(steps.length)] as Obj) : undefined;
      if (s && typeof s === 'object') {
        if (r.chance(0.2)) delete s.type;
        else s.type = r.pick(['LLM', 'llm ', undefined, 5, null, ...STEP_TYPES]);
      } else trace.steps = [{ type: 'nope' }];
      break;
    }
    case 'objectLike': {
      const target = objectSlots.length ? r.pick(objectSlots) : undefined;
      if (target) {
        const o = (target.parent as Obj)[target.key] as Obj;
        (target.parent as Obj)[target.key] = objectLike(r, o);
      } else trace.metadata = objectLike(r, {});
      break;
    }
    case 'sparse': {
      const arrays = all.map((s) => (s.parent as Obj)[s.key]).filter((v): v is unknown[] => Array.isArray(v));
      if (arrays.length) {
        const a = r.pick(arrays);
        if (a.length && r.chance(0.5)) delete a[r.int(a.length)];
        else a.length += 1;
      }
      break;
    }
  }
  return trace;
}

/** JSON text with a `"__proto__": …` member spliced into a random object, then parsed back. */
function protoViaJsonText(r: Rng, trace: Obj): unknown {
  const text = JSON.stringify(trace);
  const opens = [...text.matchAll(/\{/g)].map((m) => m.index);
  const at = r.pick(opens) + 1;
  const member = `"__proto__":${JSON.stringify(r.pick([1, { type: 'tool', name: 'n' }, [], 'x']))}`;
  return JSON.parse(text.slice(0, at) + member + (text[at] === '}' ? '' : ',') + text.slice(at));
}

function generate(r: Rng, mutations: number): unknown {
  let t = validTrace(r);
  for (let i = 0; i < mutations; i++) t = mutate(r, t);
  if (mutations > 0 && r.chance(0.1)) return protoViaJsonText(r, t);
  return t;
}

// ---------------------------------------------------------------------------------------------
// Comparison: key order, key presence, undefined, -0, holes, prototypes and reference identity.
// ---------------------------------------------------------------------------------------------

/** Numbers every object and array reachable from the input, so an output can say which it reuses. */
function inputIds(input: unknown): Map<object, number> {
  const ids = new Map<object, number>();
  const walk = (v: unknown) => {
    if (v === null || typeof v !== 'object' || ids.has(v)) return;
    ids.set(v, ids.size);
    for (const k of Reflect.ownKeys(v)) walk((v as Obj)[k as string]);
  };
  walk(input);
  return ids;
}

/** A serialisation that differs whenever two outputs differ in anything a consumer could observe. */
function canon(v: unknown, ids: Map<object, number>): string {
  if (v === undefined) return 'undefined';
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || typeof v !== 'object') return String(v);
  const ref = ids.has(v) ? `&${ids.get(v)}` : 'new';
  if (Array.isArray(v)) {
    const items = Array.from({ length: v.length }, (_, i) => (i in v ? canon(v[i], ids) : '<hole>'));
    return `${ref}[${items.join(',')}]`;
  }
  const proto = Object.getPrototypeOf(v);
  const protoTag =
    proto === Object.prototype ? '' : proto === null ? '<null>' : `<${proto.constructor?.name}>`;
  const members = Reflect.ownKeys(v).map((k) => {
    const d = Object.getOwnPropertyDescriptor(v, k)!;
    const flags = d.enumerable && d.writable && d.configurable ? '' : '(flags)';
    return `${String(k)}${flags}:${'value' in d ? canon(d.value, ids) : '<accessor>'}`;
  });
  return `${ref}${protoTag}{${members.join(',')}}`;
}

describe('compileFastParser(TraceSchema)', () => {
  // Six thousand inputs through both parsers: seconds on a quiet machine, many times that on a
  // busy one; the bound only guards against a hang (the default 20 s failed under load).
  it('agrees with zod on thousands of generated and mutated inputs', { timeout: 180_000 }, () => {
    const r = rng(20261122);
    const tally = { valid: 0, validFast: 0, mutated: 0, zodOk: 0, zodFail: 0 };
    for (let n = 0; n < 6000; n++) {
      const mutations = n < 1500 ? 0 : 1 + r.int(3);
      const input = generate(r, mutations);
      const ids = inputIds(input);
      const expected = TraceSchema.safeParse(input);
      const got = fast(input);
      const where = `case ${n}: ${canon(input, new Map())}`;
      if (mutations === 0) {
        // The generator's valid traces must be valid, or the acceptance rate below means nothing.
        expect(expected.success, where).toBe(true);
        tally.valid++;
        if (got !== INVALID) tally.validFast++;
      } else {
        tally.mutated++;
        if (expected.success) tally.zodOk++;
        else tally.zodFail++;
      }
      if (got !== INVALID) {
        expect(expected.success, where).toBe(true);
        expect(canon(got, ids), where).toBe(canon(expected.data, ids));
      }
      if (!expected.success) {
        expect(got, where).toBe(INVALID);
        // parseTrace hands back zod's own error.
        const viaWrapper = parseTrace(input);
        expect(viaWrapper.success).toBe(false);
        expect(viaWrapper.error?.issues).toEqual(expected.error.issues);
      }
      // Exactness, which unions rely on: the fast path never gives up on an input zod accepts.
      if (expected.success) expect(got, where).not.toBe(INVALID);
    }
    expect(tally.validFast / tally.valid).toBeGreaterThan(0.95);
    // The mutations must exercise both sides of the comparison.
    expect(tally.zodOk / tally.mutated).toBeGreaterThan(0.2);
    expect(tally.zodFail / tally.mutated).toBeGreaterThan(0.2);
  });

  it('agrees with zod on hand-picked edge cases', () => {
    const step = { type: 'message', from: 'a', content: 1 };
    const cases: unknown[] = [
      { id: 'a' },
      { id: '' },
      { id: '\uD800' },
      { id: '\u{1F600}' },
      { id: 'a', sessionId: undefined, metadata: undefined, input: undefined },
      { id: 'a', agentId: undefined, status: undefined, steps: undefined },
      { id: 'a', steps: [{ type: 'message', from: 'a' }] },
      { id: 'a', steps: [{ type: 'message', from: 'a', content: undefined }] },
      { id: 'a', steps: [{ type: 'llm', model: 'm', usage: { inputTokens: -0 } }] },
      { id: 'a', steps: [{ type: 'llm', model: 'm', usage: { inputTokens: NaN } }] },
      { id: 'a', steps: [{ type: 'llm', model: 'm', usage: { inputTokens: 2 ** 53 - 1 } }] },
      { id: 'a', steps: [{ type: 'llm', model: 'm', usage: { outputTokens: 2 ** 53 } }] },
      { id: 'a', steps: [{ type: 'llm', model: 'm', costUsd: 1e308 }] },
      { id: 'a', steps: [{ type: 'tool', name: 't', durationMs: 1e308 }] },
      { id: 'a', steps: [{ type: 'llm', model: '' }] },
      { id: 'a', steps: [{ type: 'llm', model: 'm', input: [], output: { role: 'assistant' } }] },
      { id: 'a', steps: [{ type: 'llm', model: 'm', input: { role: 'user' } }] },
      { id: 'a', steps: [{ type: 'state', agentId: 'x', state: [] }] },
      { id: 'a', steps: [{ type: 'state', agentId: 'x', state: Object.create(null) }] },
      { id: 'a', steps: [step, step] },
      { id: 'a', steps: new Array(2) },
      { id: 'a', metadata: JSON.parse('{"__proto__": {"x": 1}, "b": 2}') },
      JSON.parse('{"__proto__": {"id": "inherited"}, "id": "own"}'),
      Object.create({ id: 'inherited' }),
      Object.assign(new (class Trace {})(), { id: 'a' }),
      [],
      null,
      'trace',
    ];
    for (const input of cases) {
      const ids = inputIds(input);
      const expected = TraceSchema.safeParse(input);
      const got = fast(input);
      const where = canon(input, new Map());
      if (expected.success) expect(canon(got, ids), where).toBe(canon(expected.data, ids));
      else expect(got, where).toBe(INVALID);
    }
  });

  it('gives each parsed trace its own copy of every default', () => {
    const input = () => ({ id: 't', steps: [{ type: 'llm', model: 'm' }, { type: 'retrieval' }] });
    expect(fast(input())).not.toBe(INVALID);
    const a = parseTrace(input()).data!;
    const b = parseTrace(input()).data!;
    const [llmA, retrievalA] = a.steps as [
      Extract<Trace['steps'][number], { type: 'llm' }>,
      { results: unknown[] },
    ];
    llmA.usage.inputTokens = 99;
    retrievalA.results.push({ id: 'x' });
    expect(b.steps[0]).toMatchObject({ usage: { inputTokens: 0, outputTokens: 0 } });
    expect(b.steps[1]).toMatchObject({ results: [] });

    const c = parseTrace({ id: 'c' }).data!;
    const d = parseTrace({ id: 'd' }).data!;
    expect(c.steps).not.toBe(d.steps);
    c.steps.push({ type: 'message', from: 'x', content: 1 });
    expect(d.steps).toEqual([]);
    expect(parseTrace({ id: 'e' }).data!.steps).toEqual([]);
  });

  it('passes unknown values through by reference, as zod does, and copies records and arrays', () => {
    const shared = { deep: [1, { x: 2 }] };
    const input = {
      id: 't',
      input: shared,
      output: shared,
      metadata: { k: shared },
      steps: [
        { type: 'tool', name: 'n', args: shared, result: shared },
        { type: 'message', from: 'a', content: shared },
        { type: 'state', agentId: 'a', state: { s: shared } },
        {
          type: 'llm',
          model: 'm',
          input: [{ role: 'user', content: shared, toolCalls: [{ name: 't', arguments: shared }] }],
        },
      ],
    };
    const refs = (t: Trace) => {
      const [tool, message, state, llm] = t.steps as unknown as [Obj, Obj, Obj, Obj];
      const msg = (llm.input as Obj[])[0]!;
      return [
        t.input,
        t.output,
        t.metadata?.k,
        tool.args,
        tool.result,
        message.content,
        (state.state as Obj).s,
        msg.content,
        (msg.toolCalls as Obj[])[0]!.arguments,
      ];
    };
    const viaZod = TraceSchema.parse(input);
    const viaFast = fast(input);
    if (viaFast === INVALID) throw new Error('fast path rejected a valid trace');
    for (const ref of refs(viaZod)) expect(ref).toBe(shared);
    for (const ref of refs(viaFast)) expect(ref).toBe(shared);
    for (const t of [viaZod, viaFast]) {
      expect(t.metadata).not.toBe(input.metadata);
      expect(t.steps).not.toBe(input.steps);
      expect((t.steps[2] as Obj).state).not.toBe(input.steps[2]!.state);
    }
  });

  it('gives zod’s own error from parseTrace', () => {
    expect(parseTrace({ id: 'ok' })).toMatchObject({ success: true, data: { agentId: 'default' } });
    const bad = { id: 'b', steps: [{ type: 'tool', name: 'x', status: 'maybe' }] };
    const result = parseTrace(bad);
    expect(result.success).toBe(false);
    expect(result.error!.issues).toEqual(TraceSchema.safeParse(bad).error!.issues);
  });
});

describe('compileFastParser on the supported constructs beyond TraceSchema’s use of them', () => {
  const overlapping = z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.number() })]);
  it.each([
    // zod takes the first option that succeeds, even when a later one would keep more.
    ['an overlapping union', overlapping, [{ a: 'x', b: 1 }, { b: 1 }, { a: 1 }]],
    // A union option failing deep inside an array falls through to the next option.
    [
      'a union whose first option fails inside a loop',
      z.union([z.array(z.object({ n: z.number() })), z.array(z.unknown())]),
      [[{ n: 1 }, { n: 'x' }], [{ n: 1 }], 'no'],
    ],
    [
      'literals, enums and booleans',
      z.object({ l: z.literal([1, true, null, 'x']), e: z.enum({ A: 'a', B: 'b' }), b: z.boolean() }),
      [
        { l: 1, e: 'a', b: false },
        { l: null, e: 'b', b: true },
        { l: '1', e: 'a', b: true },
        { l: 1, e: 'A', b: 1 },
      ],
    ],
    [
      'code-point lengths',
      z.string().min(2),
      ['ab', '\u{1F600}', '\u{1F600}\u{1F600}', '\uD800\uDC00x', '\uDC00\uD800', 'a'],
    ],
    ['an exclusive bound', z.number().positive(), [1, 0, -0, 1e-300, -1]],
    [
      'integers (.int())',
      z.number().int().min(1),
      [1, 2, 0, 1.5, -3, 2 ** 53, 2 ** 53 - 1, Number.MAX_VALUE, NaN, Infinity, '1'],
    ],
    [
      'upper bounds',
      z.object({ a: z.number().max(5), b: z.number().lt(5) }),
      [
        { a: 5, b: 4.9 },
        { a: 5.0001, b: 1 },
        { a: 1, b: 5 },
        { a: -1e308, b: -0 },
      ],
    ],
    [
      'a default from a function and a record of numbers',
      z.object({ d: z.array(z.number()).default(() => [1]), r: z.record(z.string(), z.number()) }),
      [{ r: { a: 1 } }, { r: { a: 'x' } }, { d: [2], r: {} }, { d: undefined, r: [] }],
    ],
  ])('matches zod on %s', (_name, schema, inputs) => {
    const parse = compileFastParser(schema as z.ZodType);
    for (const input of inputs) {
      const ids = inputIds(input);
      const expected = (schema as z.ZodType).safeParse(input);
      const got = parse(input);
      if (expected.success) expect(canon(got, ids), JSON.stringify(input)).toBe(canon(expected.data, ids));
      else expect(got, JSON.stringify(input)).toBe(INVALID);
    }
  });
});

describe('compileFastParser on constructs it does not model', () => {
  const node: z.ZodType = z.object({
    get children() {
      return z.array(node);
    },
  });
  it.each([
    ['.transform()', z.object({ a: z.string().transform((s) => s.length) }), /ZodPipe \(\.transform\(\)/],
    ['.refine()', z.object({ a: z.string() }).refine(() => true), /check "custom" \(\.refine\(\)/],
    ['z.date()', z.object({ a: z.object({ when: z.date() }) }), /ZodDate at a\.when/],
    ['a string format', z.object({ email: z.email() }), /ZodEmail at email/],
    ['an unmodelled string check', z.string().max(3), /check "max_length"/],
    ['an unmodelled number check', z.number().multipleOf(2), /check "multiple_of"/],
    ['.nullable()', z.object({ a: z.string().nullable() }), /ZodNullable/],
    ['.exactOptional()', z.object({ a: z.string().exactOptional() }), /ZodExactOptional/],
    ['z.strictObject()', z.strictObject({ a: z.string() }), /catchall/],
    ['z.coerce', z.coerce.number(), /z\.coerce\.number/],
    ['a record with an enum key', z.record(z.enum(['a']), z.string()), /record key/],
    ['z.xor()', z.xor([z.string(), z.number()]), /ZodXor/],
    ['optional of a default', z.object({ a: z.string().default('x').optional() }), /optional of a default/],
    ['a recursive schema', node, /recursive schema at children\[\]/],
  ])('throws on %s, naming it', (_name, schema, message) => {
    expect(() => compileFastParser(schema)).toThrow(FastParseUnsupportedError);
    expect(() => compileFastParser(schema)).toThrow(message);
  });

  it('ignores .describe() metadata', () => {
    const parse = compileFastParser(z.object({ a: z.string().describe('an a') }).describe('an object'));
    expect(parse({ a: 'x', b: 1 })).toEqual({ a: 'x' });
  });
});

describe('loadTraces through the fast path', () => {
  it('reports zod’s field and message for a bad trace and keeps the good ones beside it', async () => {
    const d = mkdtempSync(path.join(tmpdir(), 'tj-fast-'));
    const bad = { id: 'b', steps: [{ type: 'tool', name: 'x', status: 'maybe' }] };
    const lines = [{ id: 'g1', steps: [{ type: 'message', from: 'a', content: 1 }] }, bad, { id: 'g2' }];
    writeFileSync(path.join(d, 'a.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
    // A trace that names no agent gets the --agent option's (else its file's) before parsing.
    const { traces, stats } = await loadTraces(d, { agent: 'bot' });
    expect(traces.map((t) => t.trace.id)).toEqual(['g1', 'g2']);
    expect(traces[1]!.trace).toEqual({ id: 'g2', agentId: 'bot', status: 'ok', steps: [] });
    const issue = TraceSchema.safeParse(bad).error!.issues[0]!;
    expect(stats.errors).toEqual([
      {
        file: path.join(d, 'a.jsonl'),
        line: 2,
        field: 'steps[0].status',
        message: `trace b: ${issue.message}`,
      },
    ]);
  });
});

describe('chat messages that recur within a trace', () => {
  const user = { role: 'user', content: 'find my booking', note: 'stripped' };
  const reply = { role: 'assistant', content: 'which one?' };
  const chat = () => ({
    id: 'chat',
    steps: [
      { type: 'llm', model: 'm', input: [user], output: reply },
      { type: 'llm', model: 'm', input: [user, reply], output: 'done' },
    ],
  });

  it('are parsed once and shared as the input shared them, deep-equal to zod', () => {
    const input = chat();
    const got = parseTrace(input);
    const want = TraceSchema.safeParse(input);
    expect(got.success).toBe(true);
    expect(got.data).toEqual(want.data);
    const [first, second] = got.data!.steps as Extract<Trace['steps'][number], { type: 'llm' }>[];
    const firstInput = first!.input as object[];
    const secondInput = second!.input as object[];
    expect(secondInput[0]).toBe(firstInput[0]);
    expect(secondInput[1]).toBe(first!.output);
    // still the validated copy, not the input object
    expect(firstInput[0]).not.toBe(user);
    expect(firstInput[0]).toEqual({ role: 'user', content: 'find my booking' });
  });

  it('are not shared between two parses', () => {
    const input = chat();
    const a = parseTrace(input).data!.steps[0] as { input: object[] };
    const b = parseTrace(input).data!.steps[0] as { input: object[] };
    expect(b.input[0]).not.toBe(a.input[0]);
    expect(b.input[0]).toEqual(a.input[0]);
  });

  it('fail where they are invalid, with zod’s error', () => {
    const bad = { role: 7, content: 'x' };
    const input = {
      id: 'chat',
      steps: [
        { type: 'llm', model: 'm', input: [bad] },
        { type: 'llm', model: 'm', input: [bad] },
      ],
    };
    const got = parseTrace(input);
    expect(got.success).toBe(false);
    expect(got.error!.issues).toEqual(TraceSchema.safeParse(input).error!.issues);
  });
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importFile } from '../../helpers/importFile.js';
import { describe, expect, it } from 'vitest';
import type { ImportProblem } from '../../../src/trace/importer.js';
import { otelImporter } from '../../../src/trace/formats/otel.js';
import {
  decodeAnyValue,
  decodeAttributes,
  indexed,
  normaliseId,
  orderSpans,
  parseUnixNanos,
  type Span,
} from '../../../src/trace/formats/otlp.js';
import { TraceSchema, type LlmStep, type ToolStep } from '../../../src/trace/schema.js';

const fixture = (p: string) => fileURLToPath(new URL(`../../fixtures/${p}`, import.meta.url));

function readLines(path: string) {
  const { traces, problems } = importFile(otelImporter, fixture(path), 'jsonl');
  return { traces: traces.map((t) => t.trace), problems };
}

describe('OTLP values', () => {
  it('decodes every AnyValue kind, int64 given as a string', () => {
    expect(decodeAnyValue({ stringValue: 'a' })).toBe('a');
    expect(decodeAnyValue({ intValue: '9007199254740' })).toBe(9007199254740);
    expect(decodeAnyValue({ intValue: 7 })).toBe(7);
    expect(decodeAnyValue({ doubleValue: 0.5 })).toBe(0.5);
    expect(decodeAnyValue({ boolValue: false })).toBe(false);
    expect(decodeAnyValue({ arrayValue: { values: [{ stringValue: 'stop' }, { intValue: '2' }] } })).toEqual([
      'stop',
      2,
    ]);
    expect(decodeAnyValue({ arrayValue: {} })).toEqual([]);
    expect(
      decodeAnyValue({
        kvlistValue: {
          values: [
            { key: 'q', value: { stringValue: 'x' } },
            { key: 'n', value: { intValue: '1' } },
          ],
        },
      }),
    ).toEqual({ q: 'x', n: 1 });
    expect(decodeAnyValue({})).toBeUndefined();
    // Keys keep their first place and a repeated key its last value; unset array entries stay in place.
    const kvlist = (values: unknown[]) => ({ kvlistValue: { values } });
    const decoded = decodeAnyValue(
      kvlist([
        { key: 'b', value: kvlist([{ key: 'x', value: { intValue: '1' } }]) },
        { key: 'a', value: { arrayValue: { values: [kvlist([]), { boolValue: true }, {}] } } },
        { key: 'b', value: kvlist([{ key: 'y', value: { stringValue: 'last' } }]) },
      ]),
    );
    expect(decoded).toEqual({ b: { y: 'last' }, a: [{}, true, undefined] });
    expect(Object.keys(decoded as object)).toEqual(['b', 'a']);
  });

  it('keeps an attribute named __proto__ as data, never as the prototype of what it decodes', () => {
    const report = () => {};
    const hidden = {
      kvlistValue: { values: [{ key: 'gen_ai.request.model', value: { stringValue: 'x' } }] },
    };
    const fromList = decodeAttributes([{ key: '__proto__', value: hidden }], report);
    const fromGroup = decodeAttributes(JSON.parse('{"g": {"__proto__": {"stringValue": "x"}}}'), report);
    const fromKvlist = decodeAnyValue({
      kvlistValue: { values: [{ key: '__proto__', value: hidden }] },
    }) as object;
    for (const decoded of [fromList, fromGroup, fromKvlist]) {
      expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
      expect((decoded as Record<string, unknown>)['gen_ai.request.model']).toBeUndefined();
    }
    expect(Object.keys(fromList)).toEqual(['__proto__']);
    expect(fromGroup).toEqual(JSON.parse('{"g.__proto__": "x"}'));
  });

  it('decodes attribute lists and plain objects, flattening nested groups', () => {
    const report = () => {};
    expect(decodeAttributes([{ key: 'a', value: { intValue: '3' } }], report)).toEqual({ a: 3 });
    expect(
      decodeAttributes({ llm: { model_name: 'm', token_count: { prompt: 3 } }, 'x.y': 1 }, report),
    ).toEqual({
      'llm.model_name': 'm',
      'llm.token_count.prompt': 3,
      'x.y': 1,
    });
    // Nested groups are flattened in place, depth first.
    const attrs = decodeAttributes({ z: 1, g: { b: 2, a: { c: 3 } }, y: { stringValue: 's' } }, report);
    expect(Object.entries(attrs)).toEqual([
      ['z', 1],
      ['g.b', 2],
      ['g.a.c', 3],
      ['y', 's'],
    ]);
  });

  it('normalises hex, 0x-prefixed and base64 ids; all-zero ids are no id', () => {
    expect(normaliseId('5B8EFFF798038103D269B633813FC60C')).toBe('5b8efff798038103d269b633813fc60c');
    expect(normaliseId('0xeee19b7ec3c1b174')).toBe('eee19b7ec3c1b174');
    expect(normaliseId(Buffer.from('5b8efff798038103d269b633813fc60c', 'hex').toString('base64'))).toBe(
      '5b8efff798038103d269b633813fc60c',
    );
    expect(normaliseId(Buffer.from('eee19b7ec3c1b174', 'hex').toString('base64'))).toBe('eee19b7ec3c1b174');
    expect(normaliseId('0000000000000000')).toBeUndefined();
    expect(normaliseId('')).toBeUndefined();
    expect(normaliseId('run-42')).toBe('run-42');
  });

  it('reads unix nanoseconds as strings or numbers and rejects anything else', () => {
    expect(parseUnixNanos('1741946400000000000')).toBe(1741946400000000000n);
    expect(parseUnixNanos(1741946400000000000)).toBe(1741946400000000000n);
    expect(parseUnixNanos('2025-03-14T10:00:00Z')).toBe('bad');
    expect(parseUnixNanos(undefined)).toBeUndefined();
  });

  it('gathers flattened indexed attributes', () => {
    expect(
      indexed({ 'p.1.role': 'user', 'p.0.role': 'system', 'p.0.content': 'hi', 'px.0.role': 'no' }, 'p'),
    ).toEqual([{ role: 'system', content: 'hi' }, { role: 'user' }]);
  });
});

describe('span order', () => {
  const s = (
    spanId: string,
    parentSpanId: string | undefined,
    start: number | undefined,
    seq: number,
  ): Span => ({
    traceId: 't',
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name: spanId,
    ...(start !== undefined ? { start: BigInt(start) } : {}),
    attributes: {},
    resource: {},
    status: { code: 'unset' },
    events: [],
    path: '',
    seq,
  });

  it('walks depth first with siblings by start time, orphans and cycles at top level', () => {
    const spans = [
      s('c2', 'root', 30, 0),
      s('root', undefined, 0, 1),
      s('c1', 'root', 10, 2),
      s('g1', 'c1', 20, 3),
      s('orphan', 'gone', 15, 4),
      s('x', 'y', 100, 5),
      s('y', 'x', 101, 6),
      s('nostart', 'root', undefined, 7),
    ];
    expect(orderSpans(spans).ordered.map((x) => x.spanId)).toEqual([
      'root',
      'c1',
      'g1',
      'c2',
      'nostart',
      'orphan',
      'x',
      'y',
    ]);
  });
});

describe('deep input', () => {
  // Recursive walks overflowed the call stack on input this deep (a chain of 10,000 spans already
  // did), which aborted the whole run.
  const DEPTH = 100_000;

  it('orders a 100,000-deep parent chain, each subtree before its later siblings', () => {
    // s1 → s2 → … → s100000, listed children first so arrival order is no help. A few spans also
    // have a leaf child that arrived after their chain child: a leaf comes after the whole chain
    // below it, so the leaves follow the chain, deepest first.
    const spans: Span[] = [];
    // The parts the walk does not read are shared: the test should cost the walk, not its input.
    const attributes = {};
    const status = { code: 'unset' as const };
    const events: Span['events'] = [];
    const add = (spanId: string, parentSpanId: string | undefined) => {
      const seq = spans.length;
      spans.push({
        traceId: 't',
        spanId,
        parentSpanId,
        name: spanId,
        attributes,
        resource: attributes,
        status,
        events,
        path: '',
        seq,
      });
    };
    const leafLevels = [1, 2, DEPTH / 2, DEPTH - 1];
    for (let i = DEPTH; i >= 1; i--) {
      if (leafLevels.includes(i)) add(`leaf${i}`, `s${i}`);
      add(`s${i}`, i > 1 ? `s${i - 1}` : undefined);
    }
    const ids = orderSpans(spans).ordered.map((s) => s.spanId);
    expect(ids).toHaveLength(DEPTH + leafLevels.length);
    expect(ids.slice(0, DEPTH).every((id, i) => id === `s${i + 1}`)).toBe(true);
    expect(ids.slice(DEPTH)).toEqual([...leafLevels].reverse().map((l) => `leaf${l}`));
  });

  it('decodes AnyValues, attribute groups and indexed records nested 100,000 deep', () => {
    // Arrays and kvlists alternate, so both kinds of container are nested deep.
    let any: unknown = { stringValue: 'leaf' };
    let obj: unknown = 'leaf';
    for (let i = 0; i < DEPTH; i++) {
      any =
        i % 2 === 0
          ? { kvlistValue: { values: [{ key: 'k', value: any }] } }
          : { arrayValue: { values: [any] } };
      obj = { a: obj };
    }
    let v = decodeAnyValue(any);
    for (let i = DEPTH - 1; i >= 0; i--)
      v = i % 2 === 0 ? (v as Record<string, unknown>).k : (v as unknown[])[0];
    expect(v).toBe('leaf');

    const key = `${'a.'.repeat(DEPTH - 1)}a`;
    expect(decodeAttributes({ deep: obj }, () => {})).toEqual({ [`deep.${key}`]: 'leaf' });
    expect(indexed({ docs: [obj] }, 'docs')).toEqual([{ [key]: 'leaf' }]);
  });
});

describe('OTLP reader', () => {
  it('joins one trace split over two OTLP-in-JSONL batches, hex and base64 ids alike', () => {
    const { traces, problems } = readLines('otel/collector-batches.jsonl');
    expect(problems).toEqual([]);
    expect(traces).toHaveLength(2);
    const t = traces.find((x) => x.id === '5b8efff798038103d269b633813fc60c')!;
    expect(t.agentId).toBe('mailer');
    expect(t.steps.map((x) => x.type)).toEqual(['llm', 'tool']);
    const other = traces.find((x) => x.id === '6e0c63257de34c926f9efcd03927272e')!;
    // No agent span: the service name stands in for the agent.
    expect(other.agentId).toBe('mailer-svc');
    expect(other.steps).toHaveLength(1);
  });

  it('emits a whole document pushed without a line number at once', () => {
    const reader = otelImporter.createReader({ problem: () => {} });
    const doc = JSON.parse(readFileSync(fixture('otel/legacy-document.json'), 'utf8'));
    expect(reader.push(doc)).toHaveLength(1);
    expect(reader.end()).toEqual([]);
  });

  it('reports bad records with line and field and keeps the good spans beside them', () => {
    const { traces, problems } = readLines('otel/bad-spans.jsonl');
    expect(problems).toEqual([
      { line: 2, field: 'traceId', message: 'span has no traceId; skipped' },
      { line: 3, field: 'startTimeUnixNano', message: 'not a timestamp (expected unix nanoseconds)' },
      { line: 4, message: 'expected an OTLP span or an OTLP/JSON document ({resourceSpans: […]})' },
      {
        line: 6,
        field: 'attributes',
        message: 'not a list of attributes (expected [{key, value}] or an object)',
      },
      {
        line: 5,
        field: 'attributes["gen_ai.usage.input_tokens"]',
        message: 'not a non-negative number (got "many")',
      },
      {
        line: 7,
        field: 'attributes["gen_ai.input.messages"]',
        message: 'not valid JSON (expected a list of messages)',
      },
    ]);
    expect(traces).toHaveLength(1);
    const [t] = traces;
    expect(t!.agentId).toBe('helper');
    // The span with a bad start time is kept, without timing.
    expect(t!.steps.map((s) => s.type)).toEqual(['llm', 'llm', 'tool']);
    const badTime = t!.steps[2] as ToolStep;
    expect(badTime).toMatchObject({ name: 'search' });
    expect(badTime.startedAt).toBeUndefined();
    expect(badTime.durationMs).toBeUndefined();
    expect((t!.steps[0] as LlmStep).usage).toEqual({ inputTokens: 0, outputTokens: 7 });
    expect((t!.steps[1] as LlmStep).input).toBeUndefined();
  });

  it('names the field inside a document', () => {
    const problems: ImportProblem[] = [];
    const reader = otelImporter.createReader({ problem: (p) => problems.push(p) });
    reader.push(
      {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  { traceId: 'aa'.repeat(16), spanId: 'bb'.repeat(8), name: 'ok', startTimeUnixNano: '1' },
                  { traceId: 'aa'.repeat(16), spanId: 'cc'.repeat(8), name: 'x', startTimeUnixNano: 'soon' },
                ],
              },
            ],
          },
        ],
      },
      7,
    );
    expect(reader.end()).toHaveLength(1);
    expect(problems).toEqual([
      {
        line: 7,
        field: 'resourceSpans[0].scopeSpans[0].spans[1].startTimeUnixNano',
        message: 'not a timestamp (expected unix nanoseconds)',
      },
    ]);
  });

  it('reports duplicate spans, spans ending before they start, and an unfinished root as running', () => {
    const problems: ImportProblem[] = [];
    const reader = otelImporter.createReader({ problem: (p) => problems.push(p) });
    const base = { traceId: 'ab'.repeat(16) };
    reader.push(
      {
        ...base,
        spanId: '01'.repeat(8),
        name: 'invoke_agent a',
        startTimeUnixNano: '1000000',
        endTimeUnixNano: '0',
        attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'invoke_agent' } }],
      },
      1,
    );
    const chat = {
      ...base,
      spanId: '02'.repeat(8),
      parentSpanId: '01'.repeat(8),
      name: 'chat',
      startTimeUnixNano: '3000000',
      endTimeUnixNano: '2000000',
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm' },
    };
    reader.push(chat, 2);
    reader.push(chat, 3);
    const [t] = reader.end().map((x) => TraceSchema.parse(x.trace));
    expect(problems).toEqual([
      { line: 2, field: 'endTimeUnixNano', message: 'span ends before it starts; duration dropped' },
      { line: 3, field: 'endTimeUnixNano', message: 'span ends before it starts; duration dropped' },
      {
        line: 3,
        field: 'spanId',
        message: `duplicate span ${'02'.repeat(8)} in trace ${'ab'.repeat(16)}; the first copy is kept`,
      },
    ]);
    expect(t!.status).toBe('running');
    expect(t!.steps).toHaveLength(1);
    expect(t!.steps[0]!.durationMs).toBeUndefined();
  });

  it('reads the Python SDK console exporter shape', () => {
    const reader = otelImporter.createReader({ problem: (p) => expect.fail(p.message) });
    const py = {
      name: 'chat gpt-4o',
      context: { trace_id: '0x' + 'de'.repeat(16), span_id: '0x' + '01'.repeat(8), trace_state: '[]' },
      kind: 'SpanKind.CLIENT',
      parent_id: null,
      start_time: '2025-03-14T10:00:00.000100Z',
      end_time: '2025-03-14T10:00:01.250100Z',
      status: { status_code: 'ERROR', description: 'APIConnectionError: Connection error.' },
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.response.finish_reasons': ['stop'],
      },
      events: [],
      links: [],
      resource: { attributes: { 'service.name': 'py-agent' }, schema_url: '' },
    };
    expect(otelImporter.sniff(py)).toBe(true);
    reader.push(py, 1);
    const [t] = reader.end().map((x) => TraceSchema.parse(x.trace));
    expect(t!.id).toBe('de'.repeat(16));
    expect(t!.agentId).toBe('py-agent');
    expect(t!.steps[0]).toMatchObject({
      type: 'llm',
      model: 'gpt-4o',
      finishReason: 'stop',
      error: 'APIConnectionError: Connection error.',
      startedAt: '2025-03-14T10:00:00.000Z',
      durationMs: 1250,
    });
  });

  it('reads the JS SDK console exporter shape', () => {
    const reader = otelImporter.createReader({ problem: (p) => expect.fail(p.message) });
    const js = {
      resource: { attributes: { 'service.name': 'js-agent' } },
      instrumentationScope: { name: 'x' },
      traceId: 'fa'.repeat(16),
      parentSpanContext: { traceId: 'fa'.repeat(16), spanId: '09'.repeat(8) },
      name: 'execute_tool lookup',
      id: '0a'.repeat(8),
      kind: 0,
      timestamp: 1741946400000000,
      duration: 2500,
      attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup' },
      status: { code: 0 },
      events: [],
      links: [],
    };
    expect(otelImporter.sniff(js)).toBe(true);
    reader.push(js, 1);
    const [t] = reader.end().map((x) => TraceSchema.parse(x.trace));
    expect(t!.steps[0]).toMatchObject({
      type: 'tool',
      name: 'lookup',
      startedAt: '2025-03-14T10:00:00.000Z',
      durationMs: 2.5,
    });
  });
});

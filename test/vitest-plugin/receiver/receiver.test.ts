import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { readTraceValues, type Trace } from 'tracejury';
import { decodeTraceRequest } from '../../../vitest-plugin/receiver/otlpProtobuf.js';
import {
  closeAllReceivers,
  startTraceReceiver,
  type TraceReceiver,
} from '../../../vitest-plugin/receiver/receiver.js';
import { AGENT_NAME, recordAgentRun, stepSummary } from './genAiAgentRun.js';

const EXPECTED_STEPS = ['llm gpt-4o-mini', 'tool lookup_order', 'llm gpt-4o-mini', 'tool send_email'];

const receivers: TraceReceiver[] = [];
async function receiver(options: Parameters<typeof startTraceReceiver>[0] = {}) {
  const r = await startTraceReceiver(options);
  receivers.push(r);
  return r;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** An agent run sent through a provider, a processor and the given exporter; resolves once exported. */
async function runAgentThrough(exporter: SpanExporter): Promise<void> {
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  recordAgentRun(provider.getTracer('genai-test-agent', '1.0.0'));
  await provider.shutdown();
}

/** The ended spans of one agent run, to send through more than one exporter. */
async function recordedSpans(): Promise<ReadableSpan[]> {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: memory })] });
  recordAgentRun(provider.getTracer('genai-test-agent', '1.0.0'));
  await provider.forceFlush();
  return memory.getFinishedSpans();
}

function exportSpans(exporter: SpanExporter, spans: ReadableSpan[]): Promise<void> {
  return new Promise((resolve, reject) =>
    exporter.export(spans, (result) =>
      result.code === 0 ? resolve() : reject(result.error ?? new Error('export failed')),
    ),
  );
}

/** A bare HTTP server that keeps every request body, to see exactly what an exporter sends. */
async function captureServer(): Promise<{ url: string; bodies: { type?: string; body: Buffer }[] }> {
  const bodies: { type?: string; body: Buffer }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push({ type: req.headers['content-type'], body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' });
      res.end(req.headers['content-type'] === 'application/json' ? '{}' : '');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, bodies };
}

function expectAgentTrace(t: Trace): void {
  expect(t.agentId).toBe(AGENT_NAME);
  expect(stepSummary(t.steps)).toEqual(EXPECTED_STEPS);
  const [chat1, tool1, , tool2] = t.steps;
  expect(chat1).toMatchObject({
    type: 'llm',
    provider: 'openai',
    usage: { inputTokens: 120, outputTokens: 30 },
  });
  expect(tool1).toMatchObject({ type: 'tool', args: { orderId: 42 }, result: { status: 'shipped' } });
  expect(tool2).toMatchObject({ type: 'tool', status: 'error', error: 'smtp unreachable' });
}

const post = (r: TraceReceiver, body: string | Uint8Array, headers: Record<string, string>) =>
  fetch(r.tracesUrl, { method: 'POST', body, headers });

/** An OTLP/JSON request holding the given spans of one trace, in one scope. */
function otlpJson(spans: Record<string, unknown>[]) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'py-agent' } }] },
        scopeSpans: [{ scope: { name: 'manual' }, spans }],
      },
    ],
  };
}

const TRACE_ID = '5b8efff798038103d269b633813fc60c';
const nanos = (ms: number) => String(BigInt(1_700_000_000_000 + ms) * 1_000_000n);
const span = (id: string, parent: string | undefined, name: string, attrs: Record<string, string>) => ({
  traceId: TRACE_ID,
  spanId: id,
  ...(parent ? { parentSpanId: parent } : {}),
  name,
  startTimeUnixNano: nanos(Number.parseInt(id.slice(-2), 16)),
  endTimeUnixNano: nanos(Number.parseInt(id.slice(-2), 16) + 5),
  attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
});

describe('startTraceReceiver', () => {
  it('receives the spans of the real OTLP/HTTP JSON exporter as a trace with its steps', async () => {
    const r = await receiver();
    expect(r.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(r.tracesUrl).toBe(`${r.url}/v1/traces`);
    await runAgentThrough(new JsonExporter({ url: r.tracesUrl }));
    const t = await r.waitForTrace((x) => x.agentId === AGENT_NAME, 5000);
    expectAgentTrace(t);
    expect(r.traces()).toEqual([t]);
    expect(r.errors()).toEqual([]);
  });

  it('receives the spans of the real OTLP/HTTP protobuf exporter the same way', async () => {
    const r = await receiver();
    await runAgentThrough(new ProtoExporter({ url: r.tracesUrl }));
    expectAgentTrace(await r.waitForTrace(undefined, 5000));
    expect(r.errors()).toEqual([]);
  });

  it('decodes the proto exporter bytes into what the JSON exporter sends for the same spans', async () => {
    const spans = await recordedSpans();
    const capture = await captureServer();
    await exportSpans(new JsonExporter({ url: capture.url }), spans);
    await exportSpans(new ProtoExporter({ url: capture.url }), spans);
    const [json, proto] = capture.bodies;
    expect(json?.type).toBe('application/json');
    expect(proto?.type).toBe('application/x-protobuf');

    const fromJson = JSON.parse(json!.body.toString('utf8')) as Record<string, unknown>;
    const fromProto = decodeTraceRequest(proto!.body);
    type Doc = {
      resourceSpans: {
        resource: unknown;
        scopeSpans: { scope: unknown; spans: Record<string, unknown>[] }[];
      }[];
    };
    // OTLP/JSON allows an int64 as a number (the JSON exporter) or a string (proto3 JSON, ours).
    const ints = (v: unknown) =>
      JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === 'intValue' ? String(x) : x))) as Doc;
    const jsonDoc = ints(fromJson);
    const protoDoc = ints(fromProto);
    const spansOf = (d: Doc) => d.resourceSpans[0]!.scopeSpans[0]!.spans;
    const resourceAttributes = (d: Doc) =>
      (d.resourceSpans[0]!.resource as { attributes: unknown }).attributes;
    expect(resourceAttributes(protoDoc)).toEqual(resourceAttributes(jsonDoc));
    expect(protoDoc.resourceSpans[0]!.scopeSpans[0]!.scope).toEqual(
      jsonDoc.resourceSpans[0]!.scopeSpans[0]!.scope,
    );
    // Ids in hex, times as decimal nanosecond strings, enums and flags as numbers, every attribute
    // (string, int, double, bool, array) and event, exactly as the JSON exporter writes them.
    for (const key of [
      'traceId',
      'spanId',
      'parentSpanId',
      'name',
      'kind',
      'flags',
      'startTimeUnixNano',
      'endTimeUnixNano',
      'attributes',
    ])
      expect(spansOf(protoDoc).map((s) => s[key])).toEqual(spansOf(jsonDoc).map((s) => s[key]));
    const events = (d: Doc) =>
      spansOf(d).map((s) =>
        ((s.events ?? []) as Record<string, unknown>[]).map(({ name, timeUnixNano, attributes }) => ({
          name,
          timeUnixNano,
          attributes,
        })),
      );
    expect(events(protoDoc)).toEqual(events(jsonDoc));
    expect(events(protoDoc).flat()).toHaveLength(1);
    const statuses = (d: Doc) => spansOf(d).map((s) => ({ code: 0, ...(s.status as object) }));
    expect(statuses(protoDoc)).toEqual(statuses(jsonDoc));

    const read = (doc: unknown) => readTraceValues('request', [doc]);
    const a = read(fromJson);
    const b = read(fromProto);
    expect(a.stats.errors).toEqual([]);
    expect(b.stats.errors).toEqual([]);
    expect(b.traces.map((t) => t.trace)).toEqual(a.traces.map((t) => t.trace));
    expect(stepSummary(b.traces[0]!.trace.steps)).toEqual(EXPECTED_STEPS);
  });

  it('takes gzip-compressed requests, from the exporter and by hand', async () => {
    const r = await receiver();
    const compression = 'gzip' as ConstructorParameters<typeof ProtoExporter>[0] extends infer C
      ? C extends { compression?: infer A }
        ? A
        : never
      : never;
    await runAgentThrough(new ProtoExporter({ url: r.tracesUrl, compression }));
    expectAgentTrace(await r.waitForTrace(undefined, 5000));

    const doc = otlpJson([
      span('00000000000000a1', undefined, 'invoke_agent', { 'gen_ai.agent.name': 'zipped' }),
    ]);
    const res = await post(r, gzipSync(JSON.stringify(doc)), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect((await r.waitForTrace((t) => t.agentId === 'zipped', 5000)).id).toBe(TRACE_ID);
  });

  it('joins the spans of one trace sent in two requests, and waits for the root span', async () => {
    const r = await receiver({ quietPeriodMs: 50 });
    const root = span('00000000000000a0', undefined, 'invoke_agent split', {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'split-agent',
    });
    const chat = span('00000000000000a1', '00000000000000a0', 'chat', {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-4o',
    });
    const tool = span('00000000000000a2', '00000000000000a0', 'execute_tool search', {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search',
    });
    // Children end, and are exported, before their parent.
    expect(
      (await post(r, JSON.stringify(otlpJson([chat, tool])), { 'content-type': 'application/json' })).status,
    ).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(r.traces()).toEqual([]);
    const waiting = r.waitForTrace(undefined, 5000);
    expect(
      (await post(r, JSON.stringify(otlpJson([root])), { 'content-type': 'application/json' })).status,
    ).toBe(200);
    const t = await waiting;
    expect(t.agentId).toBe('split-agent');
    expect(stepSummary(t.steps)).toEqual(['llm gpt-4o', 'tool search']);
    expect(r.traces()).toHaveLength(1);
  });

  it('takes a span whose parent is in another process (OTLP flags) as the root of what it received', async () => {
    const r = await receiver({ quietPeriodMs: 20 });
    const local = span('00000000000000e1', '00000000000000e0', 'invoke_agent remote-child', {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'remote-child',
    });
    // Bits 8 and 9 of Span.flags: whether the parent is remote is known, and it is.
    const res = await post(r, JSON.stringify(otlpJson([{ ...local, flags: 0x301 }])), {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(200);
    expect((await r.waitForTrace(undefined, 5000)).agentId).toBe('remote-child');
  });

  it('refuses a body over the size limit with 413, compressed or not, and keeps working', async () => {
    const r = await receiver({ maxRequestBytes: 2048 });
    const big = JSON.stringify(otlpJson([span('00000000000000b0', undefined, 'x'.repeat(4000), {})]));
    const plain = await post(r, big, { 'content-type': 'application/json' });
    expect(plain.status).toBe(413);
    expect(((await plain.json()) as { message: string }).message).toMatch(/larger than .*2 KiB/);
    // Small on the wire, too large once unpacked.
    const bomb = gzipSync(Buffer.alloc(64 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(2048);
    const zipped = await post(r, bomb, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(zipped.status).toBe(413);
    await zipped.arrayBuffer();
    // Streamed without a Content-Length: refused as the bytes pass the limit.
    const chunked = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        r.tracesUrl,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 3; i++) req.write(Buffer.alloc(1024, 0x20));
      req.end();
    });
    expect(chunked).toBe(413);
    expect(r.errors().map((e) => e.file)).toEqual(['OTLP request #1', 'OTLP request #2', 'OTLP request #3']);

    const ok = await post(r, JSON.stringify(otlpJson([span('00000000000000b1', undefined, 'small', {})])), {
      'content-type': 'application/json',
    });
    expect(ok.status).toBe(200);
    expect((await r.waitForTrace(undefined, 5000)).id).toBe(TRACE_ID);
  });

  it('answers 415 to an unknown content type or encoding, 404 and 405 elsewhere', async () => {
    const r = await receiver();
    const text = await post(r, 'hello', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(((await text.json()) as { message: string }).message).toMatch(/Content-Type "text\/plain"/);
    const brotli = await post(r, '{}', { 'content-type': 'application/json', 'content-encoding': 'br' });
    expect(brotli.status).toBe(415);
    await brotli.arrayBuffer();
    const other = await fetch(`${r.url}/v1/metrics`, { method: 'POST', body: '{}' });
    expect(other.status).toBe(404);
    await other.arrayBuffer();
    const get = await fetch(r.tracesUrl);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    await get.arrayBuffer();
    expect(r.errors()).toHaveLength(2);
  });

  it('answers 400 to a body that does not decode, with a readable error in errors()', async () => {
    const r = await receiver();
    const json = await post(r, '{"resourceSpans": [', { 'content-type': 'application/json' });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ code: 3, message: expect.stringMatching(/not valid JSON/) });
    const proto = await post(r, new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]), {
      'content-type': 'application/x-protobuf',
    });
    expect(proto.status).toBe(400);
    expect(proto.headers.get('content-type')).toBe('application/x-protobuf');
    await proto.arrayBuffer();
    expect(r.errors()).toEqual([
      { file: 'OTLP request #1', message: expect.stringMatching(/^request body is not valid JSON/) },
      {
        file: 'OTLP request #2',
        message: expect.stringMatching(/^request body is not a protobuf ExportTraceServiceRequest/),
      },
    ]);
    // A request that decodes but holds a bad span: taken, and the span named with its request.
    const noTrace = { ...span('00000000000000c0', undefined, 'orphan', {}), traceId: '' };
    const partial = await post(r, JSON.stringify(otlpJson([noTrace])), {
      'content-type': 'application/json',
    });
    expect(partial.status).toBe(200);
    expect(await partial.json()).toMatchObject({ partialSuccess: { rejectedSpans: '1' } });
    expect(r.errors()[2]).toMatchObject({
      file: 'OTLP request #3',
      field: 'resourceSpans[0].scopeSpans[0].spans[0].traceId',
    });
  });

  it('holds at most maxWaitingSpans spans without a root: the stalest trace is dropped, counted, its late root too', async () => {
    const r = await receiver({ maxWaitingSpans: 10, quietPeriodMs: 20 });
    const A = 'a1'.repeat(16);
    const B = 'b2'.repeat(16);
    /** `n` chat spans of one trace, children of a root span `…f0` that has not been sent. */
    const children = (traceId: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        ...span(`00000000000000${(i + 1).toString(16).padStart(2, '0')}`, '00000000000000f0', 'chat', {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o',
        }),
        traceId,
      }));
    const root = (traceId: string) => ({
      ...span('00000000000000f0', undefined, 'invoke_agent', {
        'gen_ai.agent.name': `agent-${traceId.slice(0, 2)}`,
      }),
      traceId,
    });
    const json = { 'content-type': 'application/json' };
    expect((await post(r, JSON.stringify(otlpJson(children(A, 6))), json)).status).toBe(200);
    expect(r.errors()).toEqual([]);
    // 12 waiting spans now: A, the one that went longest without a span, is dropped whole.
    expect((await post(r, JSON.stringify(otlpJson(children(B, 6))), json)).status).toBe(200);
    expect(r.errors()).toEqual([
      {
        file: 'OTLP receiver',
        message: `1 incomplete trace(s) dropped (6 span(s)): more than 10 spans were waiting for their trace's root span, so the traces that went longest without a span were dropped, and their later spans with them (${A}); raise maxWaitingSpans if one trace is that big`,
      },
    ]);
    // A's root comes late: refused too (a root without its steps is no trace), and said so.
    const late = await post(r, JSON.stringify(otlpJson([root(A)])), json);
    expect(await late.json()).toEqual({
      partialSuccess: {
        rejectedSpans: '1',
        errorMessage:
          '1 span(s) of traces dropped for the bound on spans waiting for their root were dropped',
      },
    });
    expect(r.errors()[0]!.message).toMatch(/^1 incomplete trace\(s\) dropped \(7 span\(s\)\)/);
    // B was within the bound: its root completes it, with every step.
    await post(r, JSON.stringify(otlpJson([root(B)])), json);
    const b = await r.waitForTrace(undefined, 5000);
    expect(b.id).toBe(B);
    expect(b.steps).toHaveLength(6);
    // A is gone for good, and waitForTrace says why it never came.
    await expect(r.waitForTrace((t) => t.id === A, 100)).rejects.toThrow(/1 incomplete trace\(s\) dropped/);
    expect(r.flush().map((t) => t.id)).toEqual([B]);
  });

  it('holds at most maxTraces complete traces and maxErrors input errors, and says what it let go', async () => {
    const r = await receiver({ maxTraces: 3, maxErrors: 2, quietPeriodMs: 20 });
    const json = { 'content-type': 'application/json' };
    const ids = Array.from({ length: 5 }, (_, i) => `${(i + 1).toString(16).padStart(2, '0')}`.repeat(16));
    const rootOf = (traceId: string) => ({
      ...span('00000000000000a0', undefined, 'invoke_agent', { 'gen_ai.agent.name': 'bounded' }),
      traceId,
    });
    // Five whole traces, one at a time, each waited for: two more than the receiver holds.
    for (const id of ids) {
      expect((await post(r, JSON.stringify(otlpJson([rootOf(id)])), json)).status).toBe(200);
      expect((await r.waitForTrace((t) => t.id === id, 5000)).id).toBe(id);
    }
    // Four requests that are not OTLP: two more errors than it keeps.
    for (let i = 0; i < 4; i++) expect((await post(r, `not json ${i}`, json)).status).toBe(400);

    expect(r.traces().map((t) => t.id)).toEqual(ids.slice(2));
    const errors = r.errors();
    expect(errors.slice(0, 2).map((e) => e.file)).toEqual(['OTLP request #6', 'OTLP request #7']);
    expect(errors.slice(2)).toEqual([
      {
        file: 'OTLP receiver',
        message: `2 complete trace(s) let go: the receiver holds the last 3 complete traces (maxTraces), so those completed longest ago were let go (the last: ${ids[0]}, ${ids[1]}); wait for each trace as it comes, or raise maxTraces`,
      },
      {
        file: 'OTLP receiver',
        message: '2 more input error(s) let go: the receiver keeps the first 2 (maxErrors)',
      },
    ]);
    // A span of a trace let go is not taken back, and is counted.
    const late = await post(
      r,
      JSON.stringify(otlpJson([{ ...rootOf(ids[0]!), spanId: '00000000000000a1' }])),
      json,
    );
    expect(await late.json()).toMatchObject({ partialSuccess: { rejectedSpans: '1' } });
    expect(r.errors()[2]!.message).toContain('and 1 span(s) that came for them later');
    expect(r.flush().map((t) => t.id)).toEqual(ids.slice(2));
  });

  it('a trace whose root comes with its spans is not held back by the bound, whatever its size', async () => {
    const r = await receiver({ maxWaitingSpans: 5, quietPeriodMs: 20 });
    const root = span('00000000000000c0', undefined, 'invoke_agent', { 'gen_ai.agent.name': 'big' });
    const chats = Array.from({ length: 20 }, (_, i) =>
      span(`00000000000000${(0xc1 + i).toString(16)}`, '00000000000000c0', 'chat', {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
      }),
    );
    await post(r, JSON.stringify(otlpJson([...chats, root])), { 'content-type': 'application/json' });
    expect((await r.waitForTrace(undefined, 5000)).steps).toHaveLength(20);
    expect(r.errors()).toEqual([]);
  });

  it(
    'closes an upload that stalls with 408 within requestTimeoutMs, and keeps working',
    { timeout: 60_000 },
    async () => {
      const r = await receiver({ requestTimeoutMs: 300 });
      const port = Number(new URL(r.url).port);
      /** Sends `head` and then nothing; resolves with what came back and when the socket closed. */
      const stall = (head: string) =>
        new Promise<{ answer: string; closedAfterMs: number }>((resolve, reject) => {
          const started = Date.now();
          const socket = connect(port, '127.0.0.1', () => socket.write(head));
          let answer = '';
          // The test's own bound: a socket still open after 15 s fails it (the receiver would keep a
          // stalled upload open for good without requestTimeoutMs; how much sooner it closes on a busy
          // machine is not this test's business).
          const guard = setTimeout(() => {
            socket.destroy();
            reject(new Error(`still open after 15 s; answered: ${JSON.stringify(answer)}`));
          }, 15_000);
          socket.on('data', (d: Buffer) => (answer += d.toString()));
          socket.on('error', () => {});
          socket.on('close', () => {
            clearTimeout(guard);
            resolve({ answer, closedAfterMs: Date.now() - started });
          });
        });

      // The body: 10 bytes of the 1,000 announced, then silence.
      const body = await stall(
        'POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"resource',
      );
      expect(body.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(body.answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(body.answer).toContain(
        JSON.stringify({
          code: 4,
          message: 'request body not received within 300 ms (10 bytes came of 1000)',
        }),
      );
      // Not before the bound (timers never fire early).
      expect(body.closedAfterMs).toBeGreaterThanOrEqual(250);
      expect(r.errors()).toEqual([
        {
          file: 'OTLP request #1',
          message: 'request body not received within 300 ms (10 bytes came of 1000)',
        },
      ]);

      // The headers, half sent: Node ends these (408 and close) within the same bound.
      const headers = await stall('POST /v1/traces HTTP/1.1\r\nHost: x\r\n');
      expect(headers.answer).toMatch(/^HTTP\/1\.1 408 /);

      await post(r, JSON.stringify(otlpJson([span('00000000000000b1', undefined, 'after', {})])), {
        'content-type': 'application/json',
      });
      expect((await r.waitForTrace(undefined, 5000)).id).toBe(TRACE_ID);
    },
  );

  it('says what was received when waitForTrace times out', async () => {
    const r = await receiver();
    await expect(r.waitForTrace(undefined, 50)).rejects.toThrow(
      /no complete trace arrived within 50 ms\. Nothing was received: no request reached http:\/\/127\.0\.0\.1:\d+\/v1\/traces/,
    );
    await runAgentThrough(new JsonExporter({ url: r.tracesUrl }));
    await r.waitForTrace(undefined, 5000);
    const orphan = span('00000000000000d1', '00000000000000d0', 'chat', { 'gen_ai.request.model': 'm' });
    await post(r, JSON.stringify(otlpJson([{ ...orphan, traceId: 'ab'.repeat(16) }])), {
      'content-type': 'application/json',
    });
    const failure = r.waitForTrace((t) => t.agentId === 'nobody', 200);
    await expect(failure).rejects.toThrow(/no complete trace matching the predicate arrived within 200 ms/);
    await expect(failure).rejects.toThrow(
      new RegExp(
        `1 complete trace\\(s\\): [0-9a-f]{32} \\(agent ${AGENT_NAME}, 4 steps: llm gpt-4o-mini, tool lookup_order`,
      ),
    );
    await expect(failure).rejects.toThrow(
      /Incomplete: (ab){16} \(1 span\(s\), its root span has not arrived\)/,
    );
    // The trace without its root is read when the test says the agent is done.
    expect(r.flush().map((t) => t.id)).toContain('ab'.repeat(16));
  });

  it('closes: ends keep-alive connections, frees the port, settles waits, and closes via the registry', async () => {
    const r = await receiver();
    const port = Number(new URL(r.url).port);
    // A client that keeps its connection open after its request, as exporters' agents do.
    const socket = connect(port, '127.0.0.1');
    const answered = new Promise<string>((resolve) =>
      socket.once('data', (d: Buffer) => resolve(d.toString())),
    );
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      'POST /v1/traces HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    );
    expect(await answered).toMatch(/^HTTP\/1\.1 200 /);
    // Caught at once: the wait fails while close() is still being awaited.
    const waiting = r.waitForTrace((t) => t.agentId === 'never', 5000).catch((err: Error) => err);
    await r.close();
    await ended;
    expect(await waiting).toBeInstanceOf(Error);
    expect((await waiting).toString()).toMatch(
      /the receiver closed before a complete trace matching the predicate arrived/,
    );
    await r.close();
    const again = await receiver({ port });
    expect(again.url).toBe(r.url);
    await closeAllReceivers();
    const third = await receiver({ port });
    expect(third.url).toBe(r.url);
  });

  it('receives the trace of an agent in another process, configured only by receiver.env', async () => {
    const r = await receiver();
    const dir = await mkdtemp(path.join(tmpdir(), 'tracejury-receiver-'));
    try {
      const require = createRequire(import.meta.url);
      const url = (file: string) => JSON.stringify(pathToFileURL(file).href);
      const script = path.join(dir, 'agent.mjs');
      // The child runs from a temp dir and resolves nothing by name: the packages come by path, and
      // the agent run is the test's own (genAiAgentRun.ts, loaded through tsx).
      await writeFile(
        script,
        `import { OTLPTraceExporter } from ${url(require.resolve('@opentelemetry/exporter-trace-otlp-proto'))};
import { BatchSpanProcessor, TracerProvider } from ${url(require.resolve('@opentelemetry/sdk-trace'))};
import { recordAgentRun } from ${url(path.join(import.meta.dirname, 'genAiAgentRun.ts'))};
// No url: the exporter reads OTEL_EXPORTER_OTLP_ENDPOINT from receiver.env.
const provider = new TracerProvider({
  spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
});
recordAgentRun(provider.getTracer('child-agent'));
await provider.shutdown();
`,
      );
      const child = spawn(
        process.execPath,
        ['--import', pathToFileURL(require.resolve('tsx')).href, script],
        {
          env: { ...process.env, ...r.env },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expectAgentTrace(await r.waitForTrace((t) => t.agentId === AGENT_NAME, 5000));
      expect(r.errors()).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/**
 * `startTraceReceiver()`: an OTLP/HTTP trace endpoint on loopback for an agent that runs in
 * another process (a Python agent the test spawns, say). The test hands `receiver.env` to the
 * child; the child's OpenTelemetry exporter posts its spans to `/v1/traces`, in JSON or in
 * protobuf, gzip-compressed or not; `waitForTrace()` gives the test each trace once it is whole,
 * read by tracejury's importers exactly as `tracejury analyze` reads the same spans from a file.
 *
 * Answers follow the OTLP/HTTP specification: 200 with an ExportTraceServiceResponse in the
 * request's encoding (`{}` / an empty protobuf body; a partial_success naming spans without a
 * trace id), and for a request that cannot be taken a google.rpc.Status in that encoding with 400
 * (undecodable body), 408 (a body not received within `requestTimeoutMs`, and the connection is
 * closed), 413 (over `maxRequestBytes`, compressed or not) or 415 (unknown Content-Type or
 * Content-Encoding). These are not retryable for exporters, so a bad request is not sent again.
 * Other paths get 404, other methods 405.
 *
 * What it holds is bounded: each request by `maxRequestBytes` and `requestTimeoutMs`, and the
 * spans still waiting for their trace's root by `maxWaitingSpans` (traceAssembler.ts: the traces
 * that went longest without a span are dropped, counted in errors()), the complete traces by
 * `maxTraces` (the one completed longest ago is let go) and the input errors by `maxErrors` (the
 * first are kept, the rest counted): errors() names what was let go and how much.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readTraceValues, type InputFormat, type LoadStats, type Trace } from 'tracejury';
import { decodeTraceRequest, encodeRpcStatus, encodeTraceResponse } from './otlpProtobuf.js';
import { decompress, encodingOf, readBody, RequestError, type OtlpEncoding } from './otlpRequestBody.js';
import { registerReceiver, unregisterReceiver } from './receiverRegistry.js';
import { TraceAssembler } from './traceAssembler.js';
import { currentTask } from '../worker/currentTask.js';
import { keepTrace } from '../worker/savedTraces.js';

export { closeAllReceivers } from './receiverRegistry.js';

/** What the importer could not read, as `tracejury analyze` reports it. */
export type InputError = LoadStats['errors'][number];

export interface TraceReceiverOptions {
  /** Port on 127.0.0.1 (default 0: any free port). */
  port?: number;
  /** Largest request body taken, on the wire and decompressed (default 16 MiB); larger gets 413. */
  maxRequestBytes?: number;
  /** Read spans as this format instead of detecting it per trace (`otel`, `openinference`). */
  inputFormat?: InputFormat;
  /** The agent of traces that name none (no gen_ai.agent.name, no service.name). */
  agent?: string;
  /**
   * How long a trace whose root span has arrived must go without a new span before it counts as
   * complete (default 100 ms): spans of one trace can come in several requests, in any order.
   */
  quietPeriodMs?: number;
  /**
   * Spans of traces whose root span has not arrived, held at most (default 20 000). Past it the
   * traces that went longest without a new span are dropped, with their later spans, and counted
   * in errors(). A trace whose root comes last (as exporters send it) waits whole, so one bigger
   * than this cannot be received: raise it for such an agent.
   */
  maxWaitingSpans?: number;
  /**
   * Complete traces held at most (default 1000): past it the trace completed longest ago is let
   * go, and errors() says how many were and which. A test waits for its trace as it comes.
   */
  maxTraces?: number;
  /**
   * Input errors kept at most (default 1000): past it the others are counted, not kept, and
   * errors() ends with a note of how many were let go.
   */
  maxErrors?: number;
  /**
   * How long a request's body may take to arrive (default 10 000 ms, the OTLP exporters' own
   * timeout, past which the sender has given up on it anyway); slower gets 408 and the connection
   * is closed.
   */
  requestTimeoutMs?: number;
}

export interface TraceReceiver {
  /** `http://127.0.0.1:<port>`: the value of OTEL_EXPORTER_OTLP_ENDPOINT (exporters add /v1/traces). */
  url: string;
  /** `url + '/v1/traces'`: the value of OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, used as is. */
  tracesUrl: string;
  /** The exporter environment pointing at this receiver, to spread into a child's `env`. */
  env: Record<string, string>;
  /** Complete traces received so far, in the order their first span arrived. */
  traces(): Trace[];
  /**
   * The first complete trace that satisfies `predicate` (any trace when none is given), waiting up
   * to `timeoutMs` (default 10 000) for it; rejects with what was received instead.
   */
  waitForTrace(predicate?: (trace: Trace) => boolean, timeoutMs?: number): Promise<Trace>;
  /** Requests, and records within them, that could not be read (`file` is `OTLP request #n`). */
  errors(): InputError[];
  /**
   * Completes every trace held now, root or no root, quiet period or not, and returns traces():
   * for a test that knows the agent is done (its process exited, its exporter shut down).
   */
  flush(): Trace[];
  /** Stops listening, ends open (keep-alive) connections, completes what it holds. Idempotent. */
  close(): Promise<void>;
}

const TRACES_PATH = '/v1/traces';
const DEFAULT_MAX_REQUEST_BYTES = 16 * 1024 * 1024;
const DEFAULT_QUIET_PERIOD_MS = 100;
const DEFAULT_MAX_WAITING_SPANS = 20_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_TRACES = 1000;
const DEFAULT_MAX_ERRORS = 1000;
const DEFAULT_WAIT_MS = 10_000;

const CONTENT_TYPE: Record<OtlpEncoding, string> = {
  json: 'application/json',
  protobuf: 'application/x-protobuf',
};

/** google.rpc.Code of each error status (google/rpc/code.proto). */
const RPC_CODE: Record<number, number> = { 400: 3, 408: 4, 413: 8, 415: 3, 500: 13 };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The request as an OTLP/JSON document; 400 when it is not an ExportTraceServiceRequest. */
function decodeDocument(body: Buffer, encoding: OtlpEncoding): Record<string, unknown> {
  if (encoding === 'protobuf') {
    try {
      return decodeTraceRequest(body);
    } catch (err) {
      throw new RequestError(
        400,
        `request body is not a protobuf ExportTraceServiceRequest: ${(err as Error).message}`,
      );
    }
  }
  let parsed: unknown;
  try {
    // Some clients write a byte order mark; JSON.parse does not skip it.
    const text = body.toString('utf8');
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    throw new RequestError(400, `request body is not valid JSON: ${(err as Error).message}`);
  }
  if (!isRecord(parsed) || (parsed.resourceSpans !== undefined && !Array.isArray(parsed.resourceSpans)))
    throw new RequestError(
      400,
      'request body is not an OTLP/JSON ExportTraceServiceRequest (expected {"resourceSpans": [...]})',
    );
  return parsed;
}

const hasSpans = (document: Record<string, unknown>): boolean =>
  Array.isArray(document.resourceSpans) &&
  document.resourceSpans.some(
    (rs) =>
      isRecord(rs) &&
      Array.isArray(rs.scopeSpans) &&
      rs.scopeSpans.some((ss) => isRecord(ss) && Array.isArray(ss.spans) && ss.spans.length > 0),
  );

function send(res: ServerResponse, status: number, contentType: string, body: Uint8Array | string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendError(res: ServerResponse, encoding: OtlpEncoding | undefined, status: number, message: string) {
  const code = RPC_CODE[status] ?? 2;
  // A body may still be arriving (413 refused it unread, 408 gave up on it): the connection is
  // closed once the answer is out, not reused.
  if (status === 413 || status === 408) res.setHeader('connection', 'close');
  if (encoding === 'protobuf') send(res, status, CONTENT_TYPE.protobuf, encodeRpcStatus(code, message));
  else send(res, status, CONTENT_TYPE.json, JSON.stringify({ code, message }));
}

function stepLabel(step: Trace['steps'][number]): string {
  if (step.type === 'tool') return `tool ${step.name}`;
  if (step.type === 'llm') return `llm ${step.model}`;
  return step.type;
}

function describeTrace(t: Trace): string {
  const steps = t.steps.map(stepLabel);
  const shown = steps.length > 6 ? [...steps.slice(0, 6), `… ${steps.length - 6} more`] : steps;
  return `${t.id} (agent ${t.agentId}, ${t.steps.length} steps${shown.length ? `: ${shown.join(', ')}` : ''})`;
}

function formatError(e: InputError): string {
  return `${e.file}${e.field ? `: ${e.field}` : ''}: ${e.message}`;
}

export async function startTraceReceiver(options: TraceReceiverOptions = {}): Promise<TraceReceiver> {
  const maxBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const maxWaitingSpans = options.maxWaitingSpans ?? DEFAULT_MAX_WAITING_SPANS;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const maxTraces = options.maxTraces ?? DEFAULT_MAX_TRACES;
  const maxErrors = options.maxErrors ?? DEFAULT_MAX_ERRORS;
  const importOptions = {
    ...(options.inputFormat ? { inputFormat: options.inputFormat } : {}),
    ...(options.agent ? { agent: options.agent } : {}),
  };
  const errors: InputError[] = [];
  /** Input errors past maxErrors: counted, not kept. */
  let errorsLetGo = 0;
  const addError = (e: InputError) => {
    if (errors.length < maxErrors) errors.push(e);
    else errorsLetGo++;
  };
  const waiters = new Set<{ check(): void; closed(): void }>();
  let requests = 0;
  let closing: Promise<void> | undefined;

  const assembler = new TraceAssembler({
    quietPeriodMs: options.quietPeriodMs ?? DEFAULT_QUIET_PERIOD_MS,
    maxWaitingSpans,
    maxTraces,
    ...importOptions,
    onComplete: () => {
      for (const w of [...waiters]) w.check();
    },
  });

  /** Takes a decoded request's spans; returns how many were rejected, and why, for the answer. */
  function accept(request: number, document: Record<string, unknown>): { rejected: number; why: string } {
    if (!hasSpans(document)) return { rejected: 0, why: '' };
    const file = `OTLP request #${request}`;
    // Read once on its own so that problems are reported once, with the request's name and the
    // field path inside it; the traces themselves are read when complete (traceAssembler.ts).
    const { stats } = readTraceValues(file, [document], importOptions);
    // The request is one record, so the importer's line 1 says nothing.
    for (const { line: _line, ...e } of stats.errors) addError(e);
    const { rejected, dropped } = assembler.add(request, document);
    const why = [
      ...(rejected > 0 ? [`${rejected} span(s) without a trace id were dropped`] : []),
      ...(dropped > 0
        ? [`${dropped} span(s) of traces dropped for the bound on spans waiting for their root were dropped`]
        : []),
    ].join('; ');
    return { rejected: rejected + dropped, why };
  }

  /** What the bounds let go (complete traces past maxTraces, errors past maxErrors), as notes. */
  function letGoErrors(): InputError[] {
    const notes: InputError[] = [];
    const letGo = assembler.letGo();
    if (letGo.traces > 0)
      notes.push({
        file: 'OTLP receiver',
        message:
          `${letGo.traces} complete trace(s) let go: the receiver holds the last ${maxTraces} complete traces (maxTraces), so those completed longest ago were let go` +
          `${letGo.lateSpans > 0 ? `, and ${letGo.lateSpans} span(s) that came for them later` : ''} (the last: ${letGo.examples.join(', ')}); wait for each trace as it comes, or raise maxTraces`,
      });
    if (errorsLetGo > 0)
      notes.push({
        file: 'OTLP receiver',
        message: `${errorsLetGo} more input error(s) let go: the receiver keeps the first ${maxErrors} (maxErrors)`,
      });
    return notes;
  }

  /** The traces dropped for maxWaitingSpans, as one error that keeps its count up to date. */
  function droppedError(): InputError[] {
    const dropped = assembler.dropped();
    if (dropped.traces === 0) return [];
    const ids = dropped.examples.join(', ') + (dropped.traces > dropped.examples.length ? ', …' : '');
    return [
      {
        file: 'OTLP receiver',
        message: `${dropped.traces} incomplete trace(s) dropped (${dropped.spans} span(s)): more than ${maxWaitingSpans} spans were waiting for their trace's root span, so the traces that went longest without a span were dropped, and their later spans with them (${ids}); raise maxWaitingSpans if one trace is that big`,
      },
    ];
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== TRACES_PATH) {
      req.resume();
      send(res, 404, 'text/plain', `not found: this receiver takes OTLP traces at POST ${TRACES_PATH}\n`);
      return;
    }
    if (req.method !== 'POST') {
      req.resume();
      res.setHeader('allow', 'POST');
      send(res, 405, 'text/plain', `method not allowed: OTLP traces are sent with POST ${TRACES_PATH}\n`);
      return;
    }
    const request = ++requests;
    const contentType = req.headers['content-type'];
    const encoding = encodingOf(contentType);
    try {
      if (!encoding) {
        req.resume();
        throw new RequestError(
          415,
          `unsupported Content-Type ${contentType ? `"${contentType}"` : '(none)'}: expected application/json or application/x-protobuf`,
        );
      }
      const wire = await readBody(req, maxBytes, requestTimeoutMs);
      const body = await decompress(wire, req.headers['content-encoding'], maxBytes);
      const { rejected, why: errorMessage } = accept(request, decodeDocument(body, encoding));
      if (encoding === 'protobuf')
        send(res, 200, CONTENT_TYPE.protobuf, encodeTraceResponse(rejected, errorMessage));
      else {
        // int64 is a string in OTLP/JSON.
        const response =
          rejected > 0 ? { partialSuccess: { rejectedSpans: String(rejected), errorMessage } } : {};
        send(res, 200, CONTENT_TYPE.json, JSON.stringify(response));
      }
    } catch (err) {
      const known = err instanceof RequestError;
      const message = known ? err.message : `the receiver failed on this request: ${String(err)}`;
      addError({ file: `OTLP request #${request}`, message });
      sendError(res, encoding, known ? err.status : 500, message);
    }
  }

  const server = createServer(
    {
      // Headers that stall are Node's to end (408 and close); a body that stalls is readBody's, so
      // that the answer says why. Node's own bound on the whole request is only a backstop.
      headersTimeout: requestTimeoutMs,
      requestTimeout: 2 * requestTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(requestTimeoutMs / 4))),
    },
    (req, res) => void handle(req, res),
  );
  // Neither the server nor an idle connection keeps the process alive: a receiver a test forgot
  // to close must not hang the run (an active waitForTrace keeps its own timer).
  server.on('connection', (socket) => socket.unref());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: the receiver is for processes on this machine, never the network.
    server.listen({ port: options.port ?? 0, host: '127.0.0.1' }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const tracesUrl = `${url}${TRACES_PATH}`;

  function describeReceived(): string {
    if (requests === 0) return `Nothing was received: no request reached ${tracesUrl}.`;
    const done = assembler.traces();
    const pending = assembler.pending();
    const parts = [`Received ${requests} request(s) at ${tracesUrl}.`];
    if (done.length === 0) parts.push('No complete trace.');
    else {
      const listed = done.slice(0, 5).map(describeTrace);
      if (done.length > 5) listed.push(`… ${done.length - 5} more`);
      parts.push(`${done.length} complete trace(s): ${listed.join('; ')}.`);
    }
    if (pending.length > 0) {
      const listed = pending
        .slice(0, 5)
        .map(
          (p) =>
            `${p.traceId} (${p.spans} span(s), ${p.hasRoot ? 'waiting out its quiet period' : 'its root span has not arrived'})`,
        );
      parts.push(`Incomplete: ${listed.join('; ')}.`);
    }
    // The dropped traces first: they are why an awaited trace may never come.
    const all = [...droppedError(), ...letGoErrors(), ...errors];
    if (all.length > 0) {
      const listed = all.slice(0, 3).map(formatError);
      if (all.length > 3) listed.push(`… ${all.length - 3} more`);
      parts.push(`${all.length} error(s): ${listed.join('; ')}.`);
    }
    return parts.join(' ');
  }

  const receiver: TraceReceiver = {
    url,
    tracesUrl,
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: url,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: tracesUrl,
      // The receiver speaks OTLP over HTTP only; some SDKs and agents default to gRPC.
      // http/protobuf is the default of most HTTP exporters; JSON is accepted all the same.
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
    },
    traces: () => assembler.traces(),
    errors: () => [...errors, ...droppedError(), ...letGoErrors()],
    flush() {
      assembler.flush();
      return assembler.traces();
    },
    waitForTrace(predicate, timeoutMs = DEFAULT_WAIT_MS) {
      const matches = predicate ?? (() => true);
      const what = predicate ? 'complete trace matching the predicate' : 'complete trace';
      // The test waiting is the one the trace belongs to: saved with it if it fails.
      const task = currentTask();
      return new Promise<Trace>((done, reject) => {
        const resolve = (trace: Trace) => {
          keepTrace(task, trace, '<otlp-receiver>');
          done(trace);
        };
        const failure = (why: string) => new Error(`waitForTrace: ${why}. ${describeReceived()}`);
        // The predicate is the test's code: if it throws, the wait fails with its error.
        const settled = (): boolean => {
          try {
            const found = assembler.traces().find(matches);
            if (found) resolve(found);
            return found !== undefined;
          } catch (err) {
            reject(err as Error);
            return true;
          }
        };
        if (settled()) return;
        if (closing) {
          reject(failure(`the receiver is closed and holds no ${what}`));
          return;
        }
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(waiter);
        };
        const waiter = {
          check() {
            if (settled()) finish();
          },
          closed() {
            finish();
            reject(failure(`the receiver closed before a ${what} arrived`));
          },
        };
        // Not unref'd: a test awaiting a trace keeps the process alive until it comes or this fires.
        const timer = setTimeout(() => {
          finish();
          reject(failure(`no ${what} arrived within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close() {
      closing ??= (async () => {
        unregisterReceiver(receiver);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Exporters keep connections alive; close() alone would wait for them to time out.
          server.closeAllConnections();
        });
        assembler.dispose();
        // What the agent sent is complete now, as a file is at its end.
        assembler.flush();
        for (const w of [...waiters]) w.closed();
      })();
      return closing;
    },
  };
  registerReceiver(receiver);
  return receiver;
}

/**
 * A loopback HTTP server that speaks enough of the OpenAI Chat Completions and Anthropic Messages
 * wire formats for the real SDKs to talk to it. It records every request it receives (path, headers,
 * parsed body), answers through a handler, and bounds its own lifetime with an unref'd timer.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** `openai` for chat/completions, `anthropic` for messages. */
  api: 'openai' | 'anthropic' | 'unknown';
  model: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Wait this long before answering (the client may give up first). */
  delayMs?: number;
  body: unknown;
}

export type Handler = (req: ReceivedRequest, nth: number) => Reply | Promise<Reply>;

export interface FakeServer {
  url: string;
  /** baseURL for the OpenAI SDK (`…/v1`). */
  openaiBaseURL: string;
  /** baseURL for the Anthropic SDK (it appends `/v1/messages`). */
  anthropicBaseURL: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A safety close for a server a test forgot, not a deadline: the server and this timer are unref'd,
 * so neither keeps the process alive. It was a minute, and a test that runs Vitest three times
 * against one server took longer at load 17: its judges met a closed server ('Connection error').
 */
const MAX_LIFETIME_MS = 15 * 60_000;

export async function startFakeServer(handler: Handler): Promise<FakeServer> {
  const requests: ReceivedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      let body: unknown = undefined;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = Buffer.concat(chunks).toString('utf8');
      }
      const api = /chat\/completions$/.test(path)
        ? 'openai'
        : /\/v1\/messages$/.test(path)
          ? 'anthropic'
          : 'unknown';
      const received: ReceivedRequest = {
        path,
        headers: req.headers,
        body,
        api,
        model: String((body as { model?: unknown })?.model ?? ''),
      };
      requests.push(received);
      void Promise.resolve(handler(received, requests.length)).then((reply) => {
        const send = () => {
          if (res.destroyed || res.writableEnded) return;
          res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
          res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
        };
        if (reply.delayMs) {
          const t = setTimeout(() => {
            timers.delete(t);
            send();
          }, reply.delayMs);
          timers.add(t);
        } else send();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      clearTimeout(lifetime);
      server.closeAllConnections();
      server.close(() => resolve());
    });
    return closed;
  };
  // A forgotten server must not keep the test process alive.
  const lifetime = setTimeout(() => void close(), MAX_LIFETIME_MS);
  lifetime.unref();
  server.unref();
  return { url, openaiBaseURL: `${url}/v1`, anthropicBaseURL: url, requests, close };
}

export interface AnswerFields {
  score: number;
  confidence: number;
  passed: boolean;
  reasoning?: string;
}

const usage = { inputTokens: 1000, outputTokens: 100 };

/** A Chat Completions answer whose content is `content` (an object is JSON-encoded). */
export function openaiReply(
  content: AnswerFields | string,
  model = 'gpt-4o',
  extra: Partial<Reply> = {},
): Reply {
  const text =
    typeof content === 'string' ? content : JSON.stringify({ reasoning: 'looks fine', ...content });
  return {
    ...extra,
    body: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_700_000_000,
      model,
      choices: [
        { index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: 'stop' },
      ],
      usage: {
        prompt_tokens: usage.inputTokens,
        completion_tokens: usage.outputTokens,
        total_tokens: usage.inputTokens + usage.outputTokens,
      },
    },
  };
}

/** A Messages answer: a forced tool call carrying the answer, or a text block. */
export function anthropicReply(
  content: AnswerFields | string,
  model = 'claude-sonnet-4-6',
  extra: Partial<Reply> = {},
): Reply {
  const block =
    typeof content === 'string'
      ? { type: 'text', text: content }
      : {
          type: 'tool_use',
          id: 'toolu_fake',
          name: 'submit_verdict',
          input: { reasoning: 'looks fine', ...content },
        };
  return {
    ...extra,
    body: {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model,
      content: [block],
      stop_reason: typeof content === 'string' ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
    },
  };
}

/** An error answer in the provider's error shape. */
export function errorReply(
  status: number,
  headers: Record<string, string> = {},
  api: 'openai' | 'anthropic' = 'openai',
): Reply {
  const body =
    api === 'openai'
      ? { error: { message: `fake error ${status}`, type: 'server_error', code: null } }
      : { type: 'error', error: { type: 'api_error', message: `fake error ${status}` } };
  return { status, headers, body };
}

/** Routes by the request's model: `replies[model]` is a reply or a function of the nth call to it. */
export function byModel(replies: Record<string, Reply | ((nth: number) => Reply)>): Handler {
  const seen = new Map<string, number>();
  return (req) => {
    const n = (seen.get(req.model) ?? 0) + 1;
    seen.set(req.model, n);
    const r = replies[req.model];
    if (!r) return errorReply(404);
    return typeof r === 'function' ? r(n) : r;
  };
}

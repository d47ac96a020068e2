/**
 * A tool result compared by what it says: its envelope — the message wrapper a framework put
 * around it, the ids that name the call or the request, the time it was made — is not part of its
 * outcome. Three identical lookups with identical answers are a loop even when each answer arrives
 * as a LangChain.js `ToolMessage` whose only difference is its `tool_call_id`.
 *
 * Unwrapped, outermost first (a JSON string is parsed when it looks like one of these):
 * - LangChain's serialisation (`toJSON()`: `{"lc":1,"type":"constructor","id":[…,"ToolMessage"],
 *   "kwargs":{content, tool_call_id, name, id, status, …}}`, what OpenInference's LangChain
 *   instrumentation writes as a tool span's `output.value`): its `content`; `status: "error"` is a
 *   failure;
 * - a LangGraph node's update holding one message (`{"messages":[…]}`);
 * - a tool message as a plain object (`{role|type: "tool", content, tool_call_id}`), Anthropic's
 *   `tool_result` block (`content`, `is_error`), OpenAI Responses' `function_call_output`
 *   (`output`), an MCP result (`content` blocks, `isError`);
 * - content blocks (`[{type:"text", text}]`): their text.
 * What is left is the outcome, without ids of the call or the request and timestamps at its top
 * level (`tool_call_id`, `request_id`, `run_id`, `trace_id`, `timestamp`, `created_at`, …); in
 * its text, ISO timestamps and UUIDs are masked (a request id or the time of the call differs on
 * every call of the same request).
 */

export interface ResultContent {
  /** The result without its envelope. */
  value: unknown;
  /** The envelope says the call failed (`status: "error"`, `is_error`, `isError`). */
  failed: boolean;
}

/** Keys that name the call, the request or the moment, never what the tool found. */
const ENVELOPE_KEYS = new Set([
  'tool_call_id',
  'toolCallId',
  'tool_use_id',
  'toolUseId',
  'call_id',
  'callId',
  'request_id',
  'requestId',
  'run_id',
  'runId',
  'trace_id',
  'traceId',
  'span_id',
  'spanId',
  'timestamp',
  'created_at',
  'createdAt',
  'response_metadata',
  'additional_kwargs',
  'usage_metadata',
  'lc_kwargs',
]);

/** Longest JSON text parsed to look for an envelope: a larger result is compared as it is. */
const MAX_PARSED_CHARS = 200_000;
/** Envelopes nested deeper than this are left as they are (a wrapper of a wrapper of …). */
const MAX_DEPTH = 4;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A JSON text that may be an envelope: parsed, else undefined. */
function parseEnvelope(text: string): unknown {
  const t = text.trimStart();
  if (t.length > MAX_PARSED_CHARS || (t[0] !== '{' && t[0] !== '[')) return undefined;
  // Only texts that carry an envelope's keys are parsed: ordinary JSON results stay as they are.
  if (!/"(?:lc|kwargs|tool_call_id|tool_use_id|call_id|type|role|isError|is_error|messages)"\s*:/.test(t))
    return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

/** `[{type: "text", text}]` blocks as their text; anything else as it is. */
function blocksText(content: unknown): unknown {
  if (!Array.isArray(content) || content.length === 0) return content;
  const texts: string[] = [];
  for (const b of content) {
    if (typeof b === 'string') texts.push(b);
    else if (isObj(b) && typeof b.text === 'string' && (b.type === undefined || b.type === 'text'))
      texts.push(b.text);
    else return content;
  }
  return texts.join('\n');
}

const isLangChainMessage = (o: Obj): boolean =>
  o.lc === 1 &&
  o.type === 'constructor' &&
  Array.isArray(o.id) &&
  typeof o.id[o.id.length - 1] === 'string' &&
  /Message(?:Chunk)?$/.test(o.id[o.id.length - 1] as string) &&
  isObj(o.kwargs);

/** One layer of envelope taken off, or undefined when `v` is not an envelope. */
function unwrapOnce(v: unknown): ResultContent | undefined {
  if (!isObj(v)) return undefined;
  if (isLangChainMessage(v)) {
    const kwargs = v.kwargs as Obj;
    return { value: blocksText(kwargs.content), failed: kwargs.status === 'error' };
  }
  if (Array.isArray(v.messages) && v.messages.length === 1 && Object.keys(v).length === 1)
    return { value: v.messages[0], failed: false };
  const role = v.role ?? v.type;
  if ((role === 'tool' || role === 'function') && 'content' in v && ('tool_call_id' in v || 'name' in v))
    return { value: blocksText(v.content), failed: v.status === 'error' };
  if (v.type === 'tool_result' && 'content' in v)
    return { value: blocksText(v.content), failed: v.is_error === true };
  if (v.type === 'function_call_output' && 'output' in v) return { value: v.output, failed: false };
  if (Array.isArray(v.content) && 'isError' in v)
    return { value: blocksText(v.content), failed: v.isError === true };
  return undefined;
}

/** The object without its envelope keys (the same object when it has none). */
function withoutEnvelopeKeys(v: Obj): Obj {
  let out: Obj | undefined;
  for (const k of Object.keys(v)) {
    if (!ENVELOPE_KEYS.has(k)) continue;
    out ??= { ...v };
    delete out[k];
  }
  return out ?? v;
}

/** The result without its envelope, and whether the envelope said the call failed. */
export function resultContent(result: unknown): ResultContent {
  let value = result;
  let failed = false;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const parsed = typeof value === 'string' ? parseEnvelope(value) : undefined;
    const layer = unwrapOnce(parsed ?? value);
    if (!layer) break;
    value = layer.value;
    failed ||= layer.failed;
  }
  if (isObj(value)) value = withoutEnvelopeKeys(value);
  return { value, failed };
}

/** A date and a time to the second: a moment (a date alone, or hours and minutes, may be data). */
const ISO_TIMESTAMP = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** A result's text with the moment and the request ids masked: what differs call to call by design. */
export function maskVolatile(text: string): string {
  let out = text;
  if (/\d{4}-\d{2}-\d{2}/.test(out)) out = out.replace(ISO_TIMESTAMP, '<time>');
  if (out.includes('-')) out = out.replace(UUID, '<uuid>');
  return out;
}

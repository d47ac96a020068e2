/**
 * The Vercel AI SDK's own `ai.*` spans (its built-in telemetry up to v6, and v7's
 * `LegacyOpenTelemetry` from `@ai-sdk/otel`), read by the otel importer. A span is typed by
 * `ai.operationId`:
 * - `ai.generateText` / `ai.streamText` / `ai.generateObject` / `ai.streamObject`: the whole call,
 *   the trace root — agent id from `ai.telemetry.functionId`, input from `ai.prompt`, output from
 *   `ai.response.text` (`ai.result.text` before v4) or `ai.response.object`;
 * - `….doGenerate` / `….doStream`: one provider call, an LLM step — `ai.prompt.messages`,
 *   `ai.response.text`, `ai.response.toolCalls`, `ai.response.finishReason`, usage from
 *   `ai.usage.inputTokens`/`outputTokens` (v5+) or `promptTokens`/`completionTokens` (v3/v4), model
 *   and provider from `ai.response.model` / `ai.model.id` / `ai.model.provider`. These spans also
 *   carry `gen_ai.*` attributes; they are read here, once, as the one step the span is;
 * - `ai.toolCall`: a tool execution — `ai.toolCall.name`, `.id`, `.args`, `.result`; a failed call
 *   has status ERROR and an `exception` event;
 * - anything else (`ai.embed`, `ai.embedMany`, their `doEmbed`, …) is work this reader does not
 *   turn into steps: counted as unread.
 * Attribute names: ai-sdk.dev/docs/ai-sdk-core/telemetry, checked against spans ai@5 and
 * @ai-sdk/otel@1 write (test/fixtures/generate).
 */
import { isRecord } from '../importer.js';
import type { ChatMessage, TraceInput } from '../schema.js';
import {
  firstCount,
  firstStr,
  llmStepFromSpan,
  maybeJson,
  spanError,
  spanTiming,
  str,
  type MapContext,
  type Span,
  type StepInput,
} from './otlp.js';

const ROOT_OPS = new Set(['ai.generateText', 'ai.streamText', 'ai.generateObject', 'ai.streamObject']);

/** The span's `ai.operationId`, when it is one of the AI SDK's spans. */
export const aiOperation = (s: Span): string | undefined => {
  const op = str(s.attributes['ai.operationId']);
  return op?.startsWith('ai.') ? op : undefined;
};

export const isAiSdkRoot = (s: Span): boolean => {
  const op = aiOperation(s);
  return op !== undefined && ROOT_OPS.has(op);
};

const isLlmCall = (op: string): boolean => op.endsWith('.doGenerate') || op.endsWith('.doStream');

/** True for an `ai.*` span that is neither the call, a provider call nor a tool call. */
export const isUnreadAiSpan = (s: Span): boolean => {
  const op = aiOperation(s);
  return op !== undefined && !ROOT_OPS.has(op) && !isLlmCall(op) && op !== 'ai.toolCall';
};

// ---------------------------------------------------------------------------------------------
// Messages: the AI SDK's own prompt shape, `{role, content: string | parts[]}`

/** A tool result part's value: v5+ `output: {type: 'json' | 'text' | 'error-text' | …, value}`, v4 `result`. */
function toolResultValue(p: Record<string, unknown>): unknown {
  if (isRecord(p.output) && 'value' in p.output) return p.output.value;
  return p.output ?? p.result;
}

function toolCallOf(c: Record<string, unknown>): NonNullable<ChatMessage['toolCalls']>[number] | undefined {
  const name = str(c.toolName);
  if (!name) return undefined;
  const args = c.input ?? c.args;
  return {
    ...(str(c.toolCallId) ? { id: c.toolCallId as string } : {}),
    name,
    ...(args !== undefined ? { arguments: maybeJson(args) } : {}),
  };
}

/** One AI SDK message as chat messages: tool-result parts become `tool` messages. */
function fromAiMessage(m: unknown): ChatMessage[] {
  if (!isRecord(m)) return [];
  const role = str(m.role) ?? 'user';
  if (!Array.isArray(m.content)) return m.content === undefined ? [] : [{ role, content: m.content }];
  const texts: string[] = [];
  const others: unknown[] = [];
  const calls: NonNullable<ChatMessage['toolCalls']> = [];
  const results: ChatMessage[] = [];
  for (const p of m.content) {
    if (!isRecord(p)) continue;
    if (p.type === 'text' && typeof p.text === 'string') texts.push(p.text);
    else if (p.type === 'tool-call') {
      const call = toolCallOf(p);
      if (call) calls.push(call);
    } else if (p.type === 'tool-result') {
      results.push({
        role: 'tool',
        ...(str(p.toolCallId) ? { toolCallId: p.toolCallId as string } : {}),
        ...(str(p.toolName) ? { name: p.toolName as string } : {}),
        content: toolResultValue(p),
      });
    } else if (p.type !== 'reasoning') others.push(p);
  }
  const content = others.length > 0 ? m.content : texts.length > 0 ? texts.join('\n') : undefined;
  const out: ChatMessage[] = [];
  if (content !== undefined || calls.length > 0 || results.length === 0) {
    out.push({
      role,
      ...(content !== undefined ? { content } : {}),
      ...(calls.length > 0 ? { toolCalls: calls } : {}),
    });
  }
  return out.concat(results);
}

function messagesOf(raw: unknown): ChatMessage[] | undefined {
  const parsed = maybeJson(raw);
  if (!Array.isArray(parsed)) return undefined;
  return parsed.flatMap(fromAiMessage);
}

/** `ai.prompt`: `{system?, prompt?, messages?}` as JSON text; the user's prompt as text when that is all. */
function promptOf(raw: unknown): unknown {
  const parsed = maybeJson(raw);
  if (!isRecord(parsed)) return parsed;
  const messages = Array.isArray(parsed.messages) ? parsed.messages.flatMap(fromAiMessage) : [];
  const system = str(parsed.system);
  if (typeof parsed.prompt === 'string' && !system && messages.length === 0) return parsed.prompt;
  const all: ChatMessage[] = [
    ...(system ? [{ role: 'system', content: system }] : []),
    ...messages,
    ...(parsed.prompt !== undefined ? [{ role: 'user', content: parsed.prompt }] : []),
  ];
  return all.length > 0 ? all : parsed;
}

/** Tool names from `ai.prompt.tools`: a list of JSON strings `{type, name, …}`. */
export function aiPromptTools(s: Span): string[] {
  const raw = maybeJson(s.attributes['ai.prompt.tools']);
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((t) => {
    const d = maybeJson(t);
    return isRecord(d) && str(d.name) ? [d.name as string] : [];
  });
}

// ---------------------------------------------------------------------------------------------
// Steps

function llmStep(span: Span, ctx: MapContext): StepInput {
  const a = span.attributes;
  const model =
    firstStr(a, 'ai.response.model', 'ai.model.id', 'gen_ai.response.model', 'gen_ai.request.model') ??
    'unknown';
  const provider = firstStr(a, 'ai.model.provider', 'gen_ai.system', 'gen_ai.provider.name');
  const inputTokens = firstCount(
    span,
    ctx,
    'ai.usage.inputTokens',
    'ai.usage.promptTokens',
    'gen_ai.usage.input_tokens',
    'gen_ai.usage.prompt_tokens',
  );
  const outputTokens = firstCount(
    span,
    ctx,
    'ai.usage.outputTokens',
    'ai.usage.completionTokens',
    'gen_ai.usage.output_tokens',
    'gen_ai.usage.completion_tokens',
  );
  const cached = firstCount(
    span,
    ctx,
    'ai.usage.cachedInputTokens',
    'ai.usage.inputTokenDetails.cacheReadTokens',
  );
  const cacheWrite = firstCount(span, ctx, 'ai.usage.inputTokenDetails.cacheWriteTokens');
  const text = firstStr(a, 'ai.response.text', 'ai.result.text');
  const rawCalls = maybeJson(a['ai.response.toolCalls'] ?? a['ai.result.toolCalls']);
  const calls = Array.isArray(rawCalls)
    ? rawCalls.flatMap((c) => {
        const call = isRecord(c) ? toolCallOf(c) : undefined;
        return call ? [call] : [];
      })
    : [];
  const objectOut = a['ai.response.object'] ?? a['ai.result.object'];
  const output: string | ChatMessage | undefined =
    calls.length > 0
      ? { role: 'assistant', ...(text ? { content: text } : {}), toolCalls: calls }
      : (text ?? (typeof objectOut === 'string' ? objectOut : undefined));
  const finishReasons = maybeJson(a['gen_ai.response.finish_reasons']);
  const finishReason =
    firstStr(a, 'ai.response.finishReason', 'ai.finishReason') ??
    (Array.isArray(finishReasons) ? str(finishReasons[0]) : str(finishReasons));
  return llmStepFromSpan(span, {
    model,
    provider,
    input: messagesOf(a['ai.prompt.messages']),
    output,
    finishReason,
    inputTokens,
    outputTokens,
    cachedInputTokens: cached,
    cacheWriteInputTokens: cacheWrite,
  });
}

function toolStep(span: Span): StepInput {
  const a = span.attributes;
  const name = firstStr(a, 'ai.toolCall.name') ?? 'unknown';
  const args = a['ai.toolCall.args'] ?? a['ai.toolCall.input'];
  const result = a['ai.toolCall.result'] ?? a['ai.toolCall.output'];
  const callId = firstStr(a, 'ai.toolCall.id');
  const failed = span.status.code === 'error';
  const error = failed ? spanError(span) : undefined;
  return {
    type: 'tool',
    name,
    ...(args !== undefined ? { args: maybeJson(args) } : {}),
    ...(result !== undefined ? { result: maybeJson(result) } : {}),
    status: failed ? 'error' : 'ok',
    ...(error ? { error } : {}),
    ...(callId ? { callId } : {}),
    ...spanTiming(span),
  };
}

/** The step an `ai.*` span records; undefined for the root call and for operations not read. */
export function aiSdkStep(span: Span, ctx: MapContext): StepInput | undefined {
  const op = aiOperation(span);
  if (op === undefined) return undefined;
  if (op === 'ai.toolCall') return toolStep(span);
  if (isLlmCall(op)) return llmStep(span, ctx);
  return undefined;
}

/** Trace fields from the root `ai.generateText` / `ai.streamText` / … span. */
export function aiSdkTraceFields(root: Span): Partial<TraceInput> {
  const a = root.attributes;
  const fields: Partial<TraceInput> = {};
  const agentId = firstStr(a, 'ai.telemetry.functionId');
  if (agentId) fields.agentId = agentId;
  const sessionId = firstStr(a, 'ai.telemetry.metadata.sessionId', 'ai.telemetry.metadata.session_id');
  if (sessionId) fields.sessionId = sessionId;
  if (a['ai.prompt'] !== undefined) fields.input = promptOf(a['ai.prompt']);
  const output =
    firstStr(a, 'ai.response.text', 'ai.result.text') ??
    maybeJson(a['ai.response.object'] ?? a['ai.result.object']);
  if (output !== undefined) fields.output = output;
  return fields;
}

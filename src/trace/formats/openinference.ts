/**
 * OpenInference semantic conventions (Arize Phoenix, openinference-instrumentation-*) → Trace.
 * Spans are typed by `openinference.span.kind`; lists are flattened attributes such as
 * `llm.input_messages.0.message.role`. OTLP decoding and span ordering live in otlp.ts.
 */
import { isRecord, type Importer } from '../importer.js';
import type { ChatMessage, TraceInput } from '../schema.js';
import {
  anySpanHasAttribute,
  createSpanReader,
  firstCount,
  firstStr,
  llmStepFromSpan,
  indexed,
  knownServiceName,
  looksLikeOtlp,
  maybeJson,
  spanError,
  spanTiming,
  str,
  toChatMessages,
  toolNames,
  type Attributes,
  type MapContext,
  type Span,
  type SpanMapping,
  type StepInput,
} from './otlp.js';
import { dict } from '../../util/dict.js';
import { otelMapping } from './otel.js';

const kindOf = (s: Span): string | undefined => str(s.attributes['openinference.span.kind'])?.toUpperCase();

// ---------------------------------------------------------------------------------------------
// Messages

/** One flattened message (`message.role`, `message.content`, `message.tool_calls.N.tool_call.*`, …). */
function flatMessage(m: Attributes, defaultRole: string): ChatMessage {
  const role = str(m['message.role']) ?? defaultRole;
  const name = str(m['message.name']);
  const toolCallId = str(m['message.tool_call_id']);
  const calls: NonNullable<ChatMessage['toolCalls']> = indexed(m, 'message.tool_calls').flatMap((c) => {
    const fnName = str(c['tool_call.function.name']);
    if (!fnName) return [];
    const args = c['tool_call.function.arguments'];
    const id = str(c['tool_call.id']);
    return [
      { ...(id ? { id } : {}), name: fnName, ...(args !== undefined ? { arguments: maybeJson(args) } : {}) },
    ];
  });
  const legacyFn = str(m['message.function_call_name']);
  if (legacyFn) {
    const args = m['message.function_call_arguments_json'];
    calls.push({ name: legacyFn, ...(args !== undefined ? { arguments: maybeJson(args) } : {}) });
  }
  let content: unknown = m['message.content'];
  if (content === undefined) {
    const parts = indexed(m, 'message.contents');
    const texts = parts.filter(
      (p) => p['message_content.type'] === 'text' || p['message_content.type'] === undefined,
    );
    const allText =
      texts.length === parts.length && texts.every((p) => typeof p['message_content.text'] === 'string');
    if (parts.length > 0) content = allText ? texts.map((p) => p['message_content.text']).join('\n') : parts;
  }
  // An assistant turn that only calls tools has no content, not an empty string.
  if (content === '' && calls.length > 0) content = undefined;
  return {
    role,
    ...(name ? { name } : {}),
    ...(content !== undefined && content !== null
      ? { content: role === 'tool' ? maybeJson(content) : content }
      : {}),
    ...(calls.length > 0 ? { toolCalls: calls } : {}),
    ...(toolCallId ? { toolCallId } : {}),
  };
}

/** `input.value` / `output.value`: JSON when the mime type (or the text) says so, else text. */
function valueAttr(a: Attributes, key: 'input' | 'output'): unknown {
  const v = a[`${key}.value`];
  if (v === undefined) return undefined;
  const mime = str(a[`${key}.mime_type`]);
  return mime === 'text/plain' ? v : maybeJson(v);
}

function llmInput(a: Attributes): string | ChatMessage[] | undefined {
  const messages = indexed(a, 'llm.input_messages').map((m) => flatMessage(m, 'user'));
  if (messages.length > 0) return messages;
  const prompts = indexed(a, 'llm.prompts').flatMap((p) =>
    typeof p['prompt.text'] === 'string' ? [p['prompt.text']] : [],
  );
  if (prompts.length > 0) return prompts.join('\n');
  const value = valueAttr(a, 'input');
  if (typeof value === 'string') return value;
  if (isRecord(value) && Array.isArray(value.messages))
    return value.messages.flatMap((m) => toChatMessages(m));
  return value !== undefined ? JSON.stringify(value) : undefined;
}

/** The first output message, and a finish reason from a raw provider response when present. */
function llmOutput(a: Attributes): { output?: string | ChatMessage; finishReason?: string } {
  const value = valueAttr(a, 'output');
  const choice =
    isRecord(value) && Array.isArray(value.choices) && isRecord(value.choices[0])
      ? value.choices[0]
      : undefined;
  const rawFinish =
    str(choice?.finish_reason) ??
    (isRecord(value) ? (str(value.stop_reason) ?? str(value.finish_reason)) : undefined);
  const finish = rawFinish ? { finishReason: rawFinish } : {};
  const first = indexed(a, 'llm.output_messages')[0];
  if (first) return { output: flatMessage(first, 'assistant'), ...finish };
  const text = indexed(a, 'llm.choices')[0]?.['completion.text'];
  if (typeof text === 'string') return { output: text, ...finish };
  if (choice && isRecord(choice.message)) {
    const msg = toChatMessages({ role: 'assistant', ...choice.message }, 'assistant')[0];
    return { ...(msg ? { output: msg } : {}), ...finish };
  }
  if (typeof value === 'string') return { output: value, ...finish };
  return finish;
}

// ---------------------------------------------------------------------------------------------
// Steps

function llmStep(span: Span, ctx: MapContext): StepInput {
  const a = span.attributes;
  const params = maybeJson(a['llm.invocation_parameters']);
  const paramModel = isRecord(params) ? (str(params.model) ?? str(params.model_name)) : undefined;
  const model =
    firstStr(a, 'llm.response.model_name', 'llm.model_name', 'llm.request.model_name') ??
    paramModel ??
    'unknown';
  const provider = firstStr(a, 'llm.provider', 'llm.system');
  const inputTokens = firstCount(span, ctx, 'llm.token_count.prompt');
  const outputTokens = firstCount(span, ctx, 'llm.token_count.completion');
  const cached = firstCount(span, ctx, 'llm.token_count.prompt_details.cache_read');
  const cacheWrite = firstCount(span, ctx, 'llm.token_count.prompt_details.cache_write');
  let cost = firstCount(span, ctx, 'llm.cost.total');
  if (cost === undefined) {
    const p = firstCount(span, ctx, 'llm.cost.prompt');
    const c = firstCount(span, ctx, 'llm.cost.completion');
    if (p !== undefined && c !== undefined) cost = p + c;
  }
  const input = llmInput(a);
  const { output, finishReason: fromValue } = llmOutput(a);
  const finishReason = firstStr(a, 'llm.finish_reason') ?? fromValue;
  return llmStepFromSpan(span, {
    model,
    provider,
    input,
    output,
    finishReason,
    inputTokens,
    outputTokens,
    cachedInputTokens: cached,
    cacheWriteInputTokens: cacheWrite,
    costUsd: cost,
  });
}

function toolStep(span: Span): StepInput {
  const a = span.attributes;
  const name = firstStr(a, 'tool.name') ?? (span.name || 'unknown');
  // input.value holds the call's arguments; tool.parameters (the parameter definition) is the fallback.
  const args = valueAttr(a, 'input') ?? maybeJson(a['tool.parameters']);
  const result = valueAttr(a, 'output');
  const callId = firstStr(a, 'tool.id', 'tool_call.id');
  const failed = span.status.code === 'error';
  const error = failed ? spanError(span) : undefined;
  return {
    type: 'tool',
    name,
    ...(args !== undefined ? { args } : {}),
    ...(result !== undefined ? { result } : {}),
    status: failed ? 'error' : 'ok',
    ...(error ? { error } : {}),
    ...(callId ? { callId } : {}),
    ...spanTiming(span),
  };
}

function retrievalStep(span: Span): StepInput {
  const a = span.attributes;
  const input = valueAttr(a, 'input');
  const query =
    typeof input === 'string'
      ? input
      : isRecord(input)
        ? (str(input.query) ?? str(input.input) ?? JSON.stringify(input))
        : undefined;
  const results = indexed(a, 'retrieval.documents').map((d) => {
    const id = d['document.id'];
    const score = typeof d['document.score'] === 'string' ? Number(d['document.score']) : d['document.score'];
    const content = d['document.content'];
    return {
      ...(typeof id === 'string' || typeof id === 'number' ? { id: String(id) } : {}),
      ...(typeof score === 'number' && Number.isFinite(score) ? { score } : {}),
      ...(typeof content === 'string' ? { content } : {}),
    };
  });
  return { type: 'retrieval', ...(query ? { query } : {}), results, ...spanTiming(span) };
}

/** Tools advertised to the LLM: `llm.tools.N.tool.name`, else the name inside `tool.json_schema`. */
function advertisedTools(a: Attributes): string[] {
  return indexed(a, 'llm.tools').flatMap((t) => {
    const name = str(t['tool.name']);
    if (name) return [name];
    const schema = maybeJson(t['tool.json_schema']);
    return toolNames(Array.isArray(schema) ? schema : [schema]);
  });
}

/**
 * A trace an OpenInference instrumentation wrote in part: spans with no OpenInference kind are read
 * by the OpenTelemetry mapping (GenAI conventions), so that an LLM client traced by another
 * instrumentation (@opentelemetry/instrumentation-openai beside openinference-core's traceTool,
 * say) keeps its calls instead of leaving a trace of tool steps that cost nothing.
 */
export const openinferenceMapping: SpanMapping = {
  isAgent(span) {
    const kind = kindOf(span);
    if (kind === undefined) return otelMapping.isAgent(span);
    return kind === 'AGENT' || kind === 'CHAIN';
  },
  // `agent.name` on any span, else an AGENT span's own name: a step belongs to the nearest above it.
  agentName(span) {
    return (
      firstStr(span.attributes, 'agent.name') ??
      (kindOf(span) === 'AGENT' ? span.name || undefined : undefined)
    );
  },
  toStep(span, ctx) {
    const kind = kindOf(span);
    if (kind === undefined) return otelMapping.toStep(span, ctx);
    switch (kind) {
      case 'LLM':
        return llmStep(span, ctx);
      case 'TOOL':
        return toolStep(span);
      case 'RETRIEVER':
        return retrievalStep(span);
      default:
        // AGENT / CHAIN below the root, EMBEDDING, RERANKER, GUARDRAIL, EVALUATOR, PROMPT, …: not steps.
        return undefined;
    }
  },
  isUnread(span) {
    // EMBEDDING, RERANKER, GUARDRAIL, EVALUATOR, UNKNOWN, …: work done, not read as a step.
    const kind = kindOf(span);
    if (kind === undefined) return otelMapping.isUnread?.(span) ?? false;
    return kind !== 'AGENT' && kind !== 'CHAIN';
  },
  traceFields(root, spans) {
    const fields: Partial<TraceInput> = {};
    const a = root?.attributes ?? {};
    const service = knownServiceName((root ?? spans[0])?.resource['service.name']);
    const agentId =
      firstStr(a, 'agent.name') ??
      spans.map((s) => firstStr(s.attributes, 'agent.name')).find((x) => x) ??
      service ??
      (root && kindOf(root) === 'AGENT' && root.name ? root.name : undefined);
    if (agentId) fields.agentId = agentId;
    const sessionId = [root, ...spans]
      .map((s) => (s ? firstStr(s.attributes, 'session.id') : undefined))
      .find((x) => x);
    if (sessionId) fields.sessionId = sessionId;
    if (root) {
      const input = valueAttr(a, 'input');
      if (input !== undefined) fields.input = input;
      const output = valueAttr(a, 'output');
      if (output !== undefined) fields.output = output;
    }
    const metadata = dict<unknown>();
    const userId = [root, ...spans]
      .map((s) => (s ? firstStr(s.attributes, 'user.id') : undefined))
      .find((x) => x);
    if (userId) metadata.userId = userId;
    const meta = maybeJson(a['metadata']);
    if (isRecord(meta)) Object.assign(metadata, meta);
    if (root?.status.code === 'error') {
      const error = spanError(root);
      if (error) metadata.error = error;
    }
    if (Object.keys(metadata).length > 0) fields.metadata = metadata;
    const tools = [
      ...new Set(spans.flatMap((s) => (kindOf(s) === 'LLM' ? advertisedTools(s.attributes) : []))),
    ];
    if (tools.length > 0) fields.availableTools = tools;
    return fields;
  },
};

export const openinferenceImporter: Importer = {
  format: 'openinference',
  sniff(value) {
    return looksLikeOtlp(value) && anySpanHasAttribute(value, 'openinference.span.kind');
  },
  createReader(sink, options) {
    return createSpanReader(sink, openinferenceMapping, options);
  },
};

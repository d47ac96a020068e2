/**
 * OpenTelemetry GenAI semantic conventions → Trace. Covers the current attributes
 * (`gen_ai.operation.name`, `gen_ai.provider.name`, `gen_ai.usage.input_tokens`,
 * `gen_ai.input.messages`, `gen_ai.tool.definitions`, …) and the deprecated ones still written by
 * many instrumentations (`gen_ai.system`, `gen_ai.usage.prompt_tokens`, the `gen_ai.*.message` /
 * `gen_ai.choice` span events, OpenLLMetry's flattened `gen_ai.prompt.N.*` / `gen_ai.completion.N.*`).
 * OTLP decoding and span ordering live in otlp.ts.
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
import {
  aiOperation,
  aiPromptTools,
  aiSdkStep,
  aiSdkTraceFields,
  isAiSdkRoot,
  isUnreadAiSpan,
} from './aiSdkSpans.js';
import {
  isLangfuseAgent,
  isUnreadLangfuseSpan,
  langfuseStep,
  langfuseTraceFields,
  langfuseType,
} from './langfuseSpans.js';
import { completeMastraSteps, MASTRA_STRUCTURE_OPS, mastraRunFields } from './mastraSpans.js';
import { dict } from '../../util/dict.js';

const AGENT_OPS = new Set(['invoke_agent', 'create_agent', 'invoke_workflow']);
/**
 * Operations that group steps (AI SDK 7 and Mastra wrap each model turn and its tool calls in
 * `agent_step`; Mastra's other model spans group or stream calls).
 */
const STRUCTURE_OPS = new Set(['agent_step', ...MASTRA_STRUCTURE_OPS]);
const LLM_OPS = new Set(['chat', 'text_completion', 'generate_content', 'completion']);
/** Operations that carry a model but are not an LLM generation step. */
const NOT_LLM_OPS = new Set([
  'embeddings',
  'retrieval',
  'execute_tool',
  'create_memory',
  'update_memory',
  'upsert_memory',
  'delete_memory',
  'search_memory',
  'create_memory_store',
  'delete_memory_store',
  ...AGENT_OPS,
  ...STRUCTURE_OPS,
]);

const operation = (s: Span): string | undefined =>
  firstStr(s.attributes, 'gen_ai.operation.name', 'llm.request.type')?.toLowerCase();

// ---------------------------------------------------------------------------------------------
// Messages

/** A message-list attribute (JSON string or structured array) as chat messages; bad JSON is reported. */
function messagesAttr(span: Span, key: string, ctx: MapContext): ChatMessage[] | undefined {
  const raw = span.attributes[key];
  if (raw === undefined) return undefined;
  const parsed = maybeJson(raw);
  if (typeof parsed === 'string') {
    if (/^\s*[[{]/.test(parsed)) {
      ctx.problem(span, `attributes["${key}"]`, 'not valid JSON (expected a list of messages)');
      return undefined;
    }
    return [
      { role: key.includes('output') || key.includes('completion') ? 'assistant' : 'user', content: parsed },
    ];
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.flatMap((m) => toChatMessages(m, key.includes('output') ? 'assistant' : 'user'));
}

/** `gen_ai.system_instructions` (a list of parts, or text) as a leading system message. */
function systemInstructions(span: Span): ChatMessage | undefined {
  const raw = maybeJson(span.attributes['gen_ai.system_instructions']);
  if (raw === undefined) return undefined;
  if (typeof raw === 'string') return { role: 'system', content: raw };
  const parts = Array.isArray(raw) ? raw : [raw];
  const texts = parts.flatMap((p) => (isRecord(p) && typeof p.content === 'string' ? [p.content] : []));
  return { role: 'system', content: texts.length === parts.length ? texts.join('\n') : parts };
}

const LEGACY_INPUT_EVENTS: Record<string, string> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};

/** The body of a legacy GenAI event: `gen_ai.event.content` JSON, else the event's own attributes. */
function eventBody(attrs: Attributes): Record<string, unknown> {
  const content = maybeJson(attrs['gen_ai.event.content']);
  if (isRecord(content)) return content;
  const body = dict<unknown>();
  for (const [k, v] of Object.entries(attrs)) body[k.replace(/^gen_ai\.(event\.)?/, '')] = maybeJson(v);
  return body;
}

/** OpenLLMetry's flattened `gen_ai.prompt.N.role/content` and `gen_ai.completion.N.*`. */
function flattenedMessages(attrs: Attributes, prefix: string, defaultRole: string): ChatMessage[] {
  return indexed(attrs, prefix).flatMap((m) => {
    const calls = indexed(m, 'tool_calls');
    return toChatMessages(
      {
        role: m.role ?? defaultRole,
        ...(m.content !== undefined ? { content: m.content } : {}),
        ...(m.tool_call_id !== undefined ? { tool_call_id: m.tool_call_id } : {}),
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      },
      defaultRole,
    );
  });
}

function llmInput(span: Span, ctx: MapContext): string | ChatMessage[] | undefined {
  const system = systemInstructions(span);
  const current = messagesAttr(span, 'gen_ai.input.messages', ctx);
  if (current) return system ? [system, ...current] : current;
  const fromEvents = span.events.flatMap((e) => {
    const role = LEGACY_INPUT_EVENTS[e.name];
    return role ? toChatMessages({ role, ...eventBody(e.attributes) }, role) : [];
  });
  if (fromEvents.length > 0) return system ? [system, ...fromEvents] : fromEvents;
  const flattened = flattenedMessages(span.attributes, 'gen_ai.prompt', 'user');
  if (flattened.length > 0) return flattened;
  const legacy =
    span.attributes['gen_ai.prompt'] ??
    span.events.find((e) => e.name === 'gen_ai.content.prompt')?.attributes['gen_ai.prompt'];
  if (legacy !== undefined) {
    const parsed = maybeJson(legacy);
    if (typeof parsed === 'string') return parsed;
    return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((m) => toChatMessages(m));
  }
  return system ? [system] : undefined;
}

/** The first choice's message, its finish reason when the output carries one. */
function llmOutput(span: Span, ctx: MapContext): { output?: string | ChatMessage; finishReason?: string } {
  const raw = span.attributes['gen_ai.output.messages'];
  if (raw !== undefined) {
    const parsed = maybeJson(raw);
    if (typeof parsed === 'string') {
      if (/^\s*[[{]/.test(parsed)) {
        ctx.problem(
          span,
          'attributes["gen_ai.output.messages"]',
          'not valid JSON (expected a list of messages)',
        );
        return {};
      }
      return { output: parsed };
    }
    const first = Array.isArray(parsed) ? parsed[0] : parsed;
    const msg = toChatMessages(first, 'assistant')[0];
    const finish = isRecord(first) ? str(first.finish_reason) : undefined;
    return { ...(msg ? { output: msg } : {}), ...(finish ? { finishReason: finish } : {}) };
  }
  const choice = span.events.find((e) => e.name === 'gen_ai.choice');
  if (choice) {
    const body = eventBody(choice.attributes);
    const message = isRecord(body.message) ? body.message : body;
    const msg = toChatMessages({ role: 'assistant', ...message }, 'assistant')[0];
    const finish = str(body.finish_reason);
    return { ...(msg ? { output: msg } : {}), ...(finish ? { finishReason: finish } : {}) };
  }
  const flattened = indexed(span.attributes, 'gen_ai.completion');
  if (flattened.length > 0) {
    const msg = flattenedMessages(span.attributes, 'gen_ai.completion', 'assistant')[0];
    const finish = str(flattened[0]?.finish_reason);
    return { ...(msg ? { output: msg } : {}), ...(finish ? { finishReason: finish } : {}) };
  }
  const legacy =
    span.attributes['gen_ai.completion'] ??
    span.events.find((e) => e.name === 'gen_ai.content.completion')?.attributes['gen_ai.completion'];
  if (legacy !== undefined) {
    const parsed = maybeJson(legacy);
    if (typeof parsed === 'string') return { output: parsed };
    const first = Array.isArray(parsed) ? parsed[0] : parsed;
    const msg = toChatMessages(first, 'assistant')[0];
    return msg ? { output: msg } : {};
  }
  return {};
}

/** `gen_ai.response.finish_reasons` is a string array; a single string (or JSON text of one) is accepted. */
function finishReasonAttr(v: unknown): string | undefined {
  const parsed = maybeJson(v);
  if (Array.isArray(parsed)) return parsed.find((x): x is string => typeof x === 'string' && x !== '');
  return str(parsed);
}

// ---------------------------------------------------------------------------------------------
// Steps

function llmStep(span: Span, ctx: MapContext): StepInput {
  const a = span.attributes;
  const model = firstStr(a, 'gen_ai.response.model', 'gen_ai.request.model') ?? 'unknown';
  const provider = firstStr(a, 'gen_ai.provider.name', 'gen_ai.system');
  const inputTokens = firstCount(span, ctx, 'gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens');
  const outputTokens = firstCount(span, ctx, 'gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens');
  const cached = firstCount(
    span,
    ctx,
    'gen_ai.usage.cache_read.input_tokens',
    'gen_ai.usage.cache_read_input_tokens',
    'gen_ai.usage.input_tokens.cached',
  );
  const cacheWrite = firstCount(
    span,
    ctx,
    'gen_ai.usage.cache_creation.input_tokens',
    'gen_ai.usage.cache_creation_input_tokens',
    'gen_ai.usage.input_tokens.cache_write',
    // The Anthropic SDK's own spans (`anthropic.messages.create`) name it so.
    'gen_ai.usage.cache_write.input_tokens',
  );
  const cost = firstCount(span, ctx, 'gen_ai.usage.cost', 'gen_ai.usage.cost_usd');
  const input = inputCountingCache(span, ctx, inputTokens, cached, cacheWrite);
  const { output, finishReason: fromOutput } = llmOutput(span, ctx);
  const finishReason = finishReasonAttr(a['gen_ai.response.finish_reasons']) ?? fromOutput;
  return llmStepFromSpan(span, {
    model,
    provider,
    input: llmInput(span, ctx),
    output,
    finishReason,
    inputTokens: input,
    outputTokens,
    cachedInputTokens: cached,
    cacheWriteInputTokens: cacheWrite,
    costUsd: cost,
  });
}

/**
 * The GenAI conventions count cached tokens inside `gen_ai.usage.input_tokens`; Anthropic's API
 * counts them apart, and instrumentations that copy its `input_tokens` (Traceloop's) record fewer
 * input tokens than cached ones. More cached than input can only be that: the input is read as
 * the uncached tokens plus the cache reads and writes, and the note says so.
 */
function inputCountingCache(
  span: Span,
  ctx: MapContext,
  input: number | undefined,
  cached: number | undefined,
  cacheWrite: number | undefined,
): number | undefined {
  if (input === undefined || cached === undefined || cached <= input) return input;
  const total = input + cached + (cacheWrite ?? 0);
  ctx.warning?.(
    span,
    'attributes["gen_ai.usage.input_tokens"]',
    `${cached} cached input tokens are more than the ${input} input tokens recorded: the count leaves ` +
      `the cache out (as Anthropic's API counts it), so the input is read as ${total} tokens`,
  );
  return total;
}

/**
 * Traceloop's withTool records the call's arguments as `{"args": [...], "kwargs": {...}}`; the
 * arguments are the one object passed (kwargs when no positional ones), as the tool saw them.
 */
function traceloopArguments(raw: unknown): unknown {
  if (!isRecord(raw) || !Array.isArray(raw.args) || !isRecord(raw.kwargs)) return raw;
  if (Object.keys(raw).length !== 2) return raw;
  const kwargs = Object.keys(raw.kwargs).length > 0;
  if (raw.args.length === 0) return raw.kwargs;
  if (raw.args.length === 1 && !kwargs) return raw.args[0];
  return raw;
}

function toolStep(span: Span): StepInput {
  const a = span.attributes;
  const traceloop = str(a['traceloop.span.kind']) === 'tool';
  const name =
    firstStr(a, 'gen_ai.tool.name', ...(traceloop ? ['traceloop.entity.name'] : [])) ??
    (span.name.replace(/^execute_tool\s+/, '') || 'unknown');
  const argsRaw = a['gen_ai.tool.call.arguments'] ?? (traceloop ? a['traceloop.entity.input'] : undefined);
  const resultRaw = a['gen_ai.tool.call.result'] ?? (traceloop ? a['traceloop.entity.output'] : undefined);
  const callId = firstStr(a, 'gen_ai.tool.call.id');
  const failed = span.status.code === 'error';
  const error = failed ? spanError(span) : undefined;
  return {
    type: 'tool',
    name,
    ...(argsRaw !== undefined
      ? { args: traceloop ? traceloopArguments(maybeJson(argsRaw)) : maybeJson(argsRaw) }
      : {}),
    ...(resultRaw !== undefined ? { result: maybeJson(resultRaw) } : {}),
    status: failed ? 'error' : 'ok',
    ...(error ? { error } : {}),
    ...(callId ? { callId } : {}),
    ...spanTiming(span),
  };
}

function retrievalStep(span: Span, ctx: MapContext): StepInput {
  const a = span.attributes;
  const query = firstStr(a, 'gen_ai.retrieval.query.text', 'gen_ai.retrieval.query');
  const raw = a['gen_ai.retrieval.documents'];
  const docs = maybeJson(raw);
  const results: { id?: string; score?: number; content?: string }[] = [];
  if (raw !== undefined && !Array.isArray(docs)) {
    ctx.problem(span, 'attributes["gen_ai.retrieval.documents"]', 'not a list of documents');
  } else if (Array.isArray(docs)) {
    for (const d of docs) {
      if (!isRecord(d)) continue;
      const id = typeof d.id === 'string' || typeof d.id === 'number' ? String(d.id) : undefined;
      const score = typeof d.score === 'number' ? d.score : undefined;
      const content =
        typeof d.content === 'string'
          ? d.content
          : d.content !== undefined
            ? JSON.stringify(d.content)
            : undefined;
      results.push({
        ...(id !== undefined ? { id } : {}),
        ...(score !== undefined ? { score } : {}),
        ...(content !== undefined ? { content } : {}),
      });
    }
  }
  return { type: 'retrieval', ...(query ? { query } : {}), results, ...spanTiming(span) };
}

function availableTools(root: Span | undefined, spans: Span[]): string[] | undefined {
  const fromSpan = (s: Span): string[] => {
    const defs = toolNames(s.attributes['gen_ai.tool.definitions'] ?? s.attributes['gen_ai.request.tools']);
    if (defs.length > 0) return defs;
    // OpenLLMetry: llm.request.functions.N.name
    return indexed(s.attributes, 'llm.request.functions').flatMap((f) =>
      str(f.name) ? [f.name as string] : [],
    );
  };
  const names = root ? fromSpan(root) : [];
  // A loop rather than push(...): a span may declare any number of tools.
  if (names.length === 0) for (const s of spans) for (const n of fromSpan(s)) names.push(n);
  if (names.length === 0) for (const s of spans) for (const n of aiPromptTools(s)) names.push(n);
  return names.length > 0 ? [...new Set(names)] : undefined;
}

function isAgent(span: Span): boolean {
  if (isAiSdkRoot(span) || isLangfuseAgent(span)) return true;
  const op = operation(span);
  if (op && AGENT_OPS.has(op)) return true;
  const tl = str(span.attributes['traceloop.span.kind']);
  return tl === 'agent' || tl === 'workflow';
}

/**
 * The agent a span names: `gen_ai.agent.name` / `gen_ai.agent.id` on any span (an `invoke_agent`
 * span, or a call that names its agent itself), else an agent span's own name (`invoke_agent
 * <name>` as the conventions name it, an OpenLLMetry agent, a Langfuse agent observation, the AI
 * SDK's `ai.telemetry.functionId`).
 */
function agentName(span: Span): string | undefined {
  const a = span.attributes;
  const named = firstStr(a, 'gen_ai.agent.name', 'gen_ai.agent.id');
  if (named) return named;
  if (isLangfuseAgent(span)) return span.name || undefined;
  if (isAiSdkRoot(span)) return firstStr(a, 'ai.telemetry.functionId');
  if (str(a['traceloop.span.kind']) === 'agent') return firstStr(a, 'traceloop.entity.name');
  if (operation(span) === 'invoke_agent') return /^invoke_agent\s+(\S.*)$/.exec(span.name)?.[1]?.trim();
  return undefined;
}

export const otelMapping: SpanMapping = {
  isAgent,
  agentName,
  toStep(span, ctx) {
    if (isAgent(span)) return undefined;
    // The AI SDK's and Langfuse's own attributes first: their LLM spans also carry gen_ai.*
    // attributes, and a span is one step whichever convention names it.
    if (aiOperation(span) !== undefined) return aiSdkStep(span, ctx);
    if (langfuseType(span) !== undefined) return langfuseStep(span, ctx);
    const op = operation(span);
    const a = span.attributes;
    if (op === 'execute_tool' || (op === undefined && a['gen_ai.tool.name'] !== undefined))
      return toolStep(span);
    if (op === undefined && str(a['traceloop.span.kind']) === 'tool') return toolStep(span);
    if (op === 'retrieval') return retrievalStep(span, ctx);
    if (op !== undefined && LLM_OPS.has(op)) return llmStep(span, ctx);
    if (
      (op === undefined || !NOT_LLM_OPS.has(op)) &&
      (a['gen_ai.request.model'] ?? a['gen_ai.response.model']) !== undefined
    ) {
      return llmStep(span, ctx);
    }
    return undefined;
  },
  completeSteps: completeMastraSteps,
  isUnread(span) {
    if (aiOperation(span) !== undefined) return isUnreadAiSpan(span);
    if (langfuseType(span) !== undefined) return isUnreadLangfuseSpan(span);
    // A GenAI operation that is not a step (embeddings, memory, an operation not known here).
    const op = operation(span);
    return op !== undefined && !STRUCTURE_OPS.has(op) && !AGENT_OPS.has(op);
  },
  traceFields(root, spans, ctx) {
    if (root && isAiSdkRoot(root)) return withTools(aiSdkTraceFields(root), root, spans);
    if (spans.some((s) => langfuseType(s) !== undefined))
      return withTools(langfuseTraceFields(root, spans), root, spans);
    const a = root?.attributes ?? {};
    const anyAttr = (...keys: string[]) => {
      for (const s of root ? [root, ...spans] : spans) {
        const v = firstStr(s.attributes, ...keys);
        if (v) return v;
      }
      return undefined;
    };
    const agentId =
      firstStr(a, 'gen_ai.agent.name', 'gen_ai.agent.id') ??
      (root && str(a['traceloop.span.kind'])
        ? firstStr(a, 'traceloop.entity.name', 'traceloop.workflow.name')
        : undefined);
    const agentVersion = firstStr(a, 'gen_ai.agent.version');
    const sessionId = anyAttr(
      'gen_ai.conversation.id',
      'session.id',
      'traceloop.association.properties.session_id',
    );
    const fields: Partial<TraceInput> = {
      ...(agentId ? { agentId } : {}),
      ...(agentVersion ? { agentVersion } : {}),
      ...(sessionId ? { sessionId } : {}),
    };
    if (root) {
      Object.assign(fields, mastraRunFields(root));
      const input =
        messagesAttr(root, 'gen_ai.input.messages', ctx) ??
        traceloopArguments(maybeJson(a['traceloop.entity.input']));
      if (input !== undefined) fields.input = input;
      const outMsgs = messagesAttr(root, 'gen_ai.output.messages', ctx);
      const output = outMsgs
        ? outMsgs.length === 1
          ? outMsgs[0]
          : outMsgs
        : maybeJson(a['traceloop.entity.output']);
      if (output !== undefined) fields.output = output;
      if (root.status.code === 'error') {
        const error = spanError(root);
        if (error) fields.metadata = { error };
      }
    }
    const tools = availableTools(root, spans);
    if (tools) fields.availableTools = tools;
    return fields;
  },
};

function withTools(fields: Partial<TraceInput>, root: Span | undefined, spans: Span[]): Partial<TraceInput> {
  const tools = availableTools(root, spans);
  return tools ? { ...fields, availableTools: tools } : fields;
}

export const otelImporter: Importer = {
  format: 'otel',
  sniff(value) {
    return looksLikeOtlp(value) && !anySpanHasAttribute(value, 'openinference.span.kind');
  },
  createReader(sink, options) {
    return createSpanReader(sink, otelMapping, options);
  },
};

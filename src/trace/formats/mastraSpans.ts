/**
 * Spans written by Mastra's observability (`@mastra/otel-exporter`, `@mastra/otel-bridge`), read by
 * the otel importer. Both write GenAI spans with a `mastra.span.type` beside the operation, and
 * each leaves something out that the GenAI layout expects; names checked against the spans the real
 * packages write (test/fixtures/generate/mastra-otel-*.mjs):
 *
 * - The OtelExporter writes one `chat` span per model call (`mastra.span.type: model_inference`)
 *   whose `gen_ai.output.messages` hold only the call's text: the tool calls it asked for are in
 *   its `model_chunk` child spans (`mastra.model_chunk.output`: `{ toolName, toolCallId,
 *   toolInput }`). They are put back on the call's output, so the call is not an empty answer and
 *   each tool step links to the call that issued it.
 * - The OtelBridge writes one `chat` span for the whole run (`mastra.span.type: model_generation`,
 *   usage summed over its calls) and each call as a `model_step` / `model_inference` span with no
 *   token counts. The run is read as that one LLM step, with a note that per-call detail was not
 *   recorded.
 * - The run's question and answer are `mastra.agent_run.input` / `.output` on the `invoke_agent` span.
 */
import { isRecord } from '../importer.js';
import type { ChatMessage, TraceInput } from '../schema.js';
import { firstStr, maybeJson, str, type MapContext, type Span, type StepInput } from './otlp.js';

/** Mastra's span types that group or stream model calls: neither steps nor unread work. */
export const MASTRA_STRUCTURE_OPS = ['model_generation', 'model_step', 'model_inference', 'model_chunk'];

const mastraType = (s: Span): string | undefined => str(s.attributes['mastra.span.type']);

type LlmStepInput = Extract<StepInput, { type: 'llm' }>;
type ToolCall = NonNullable<ChatMessage['toolCalls']>[number];

/** A model_chunk span's tool call, when the chunk was one. */
function chunkToolCall(span: Span): ToolCall | undefined {
  const out = maybeJson(span.attributes['mastra.model_chunk.output']);
  if (!isRecord(out)) return undefined;
  const name = str(out.toolName);
  if (!name) return undefined;
  const id = str(out.toolCallId);
  return {
    ...(id ? { id } : {}),
    name,
    ...(out.toolInput !== undefined ? { arguments: out.toolInput } : {}),
  };
}

/** The call's output with the tool calls its chunks carried (an empty text is no content). */
function withToolCalls(step: LlmStepInput, calls: ToolCall[]): LlmStepInput {
  const output = typeof step.output === 'string' ? { role: 'assistant', content: step.output } : step.output;
  const content = output?.content === '' ? undefined : output?.content;
  const known = new Set((output?.toolCalls ?? []).map((c) => c.id ?? c.name));
  const added = calls.filter((c) => !known.has(c.id ?? c.name));
  return {
    ...step,
    output: {
      role: output?.role ?? 'assistant',
      ...(content !== undefined ? { content } : {}),
      toolCalls: [...(output?.toolCalls ?? []), ...added],
    },
  };
}

/**
 * Completes Mastra's LLM steps from the spans around them: an OtelExporter call gets the tool calls
 * of its model_chunk children; the OtelBridge's run-wide chat span is noted as such.
 */
export function completeMastraSteps(ordered: Span[], stepOf: Map<Span, StepInput>, ctx: MapContext): void {
  const byId = new Map<string, Span>();
  for (const s of ordered) byId.set(s.spanId, s);
  const calls = new Map<Span, ToolCall[]>();
  for (const s of ordered) {
    if (mastraType(s) !== 'model_chunk' || s.parentSpanId === undefined) continue;
    const parent = byId.get(s.parentSpanId);
    const call = chunkToolCall(s);
    if (!parent || !call || stepOf.get(parent)?.type !== 'llm') continue;
    const list = calls.get(parent) ?? [];
    list.push(call);
    calls.set(parent, list);
  }
  for (const [span, list] of calls) stepOf.set(span, withToolCalls(stepOf.get(span) as LlmStepInput, list));

  for (const [span, step] of stepOf) {
    if (step.type !== 'llm' || mastraType(span) !== 'model_generation') continue;
    const modelCalls = ordered.filter((s) => mastraType(s) === 'model_step' && isBelow(s, span, byId)).length;
    ctx.warning?.(
      span,
      'attributes["mastra.span.type"]',
      `Mastra's OtelBridge records the run's ${modelCalls || 'model'} calls as this one chat span ` +
        '(its usage is their sum): per-call detail (each call’s tokens, cost and model) was not recorded, ' +
        'so it is read as one LLM step. The OtelExporter (@mastra/otel-exporter) writes each call.',
    );
  }
}

function isBelow(span: Span, ancestor: Span, byId: Map<string, Span>): boolean {
  const seen = new Set<Span>();
  for (let p = span.parentSpanId ? byId.get(span.parentSpanId) : undefined; p && !seen.has(p);) {
    if (p === ancestor) return true;
    seen.add(p);
    p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined;
  }
  return false;
}

/** The run's question and answer, from Mastra's `invoke_agent` span. */
export function mastraRunFields(root: Span | undefined): Partial<TraceInput> {
  if (!root || mastraType(root) !== 'agent_run') return {};
  const input = maybeJson(root.attributes['mastra.agent_run.input']);
  const output = maybeJson(root.attributes['mastra.agent_run.output']);
  const text = isRecord(output) ? firstStr(output, 'text') : undefined;
  return {
    ...(input !== undefined ? { input } : {}),
    ...(text !== undefined ? { output: text } : output !== undefined ? { output } : {}),
  };
}

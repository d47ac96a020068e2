/**
 * Spans written by Langfuse's OpenTelemetry-based SDKs (JS `@langfuse/tracing` v4+, Python v3+),
 * read by the otel importer. An observation is a span typed by `langfuse.observation.type`
 * (`generation`, `tool`, `retriever`, `agent`, `chain`, `span`, `event`, `embedding`, `evaluator`,
 * `guardrail`), with `langfuse.observation.input` / `.output` (JSON text), `.model.name`,
 * `.usage_details` / `.cost_details` (JSON objects, read as the export's `usageDetails` /
 * `costDetails`), `.level` and `.status_message`. Trace attributes: `langfuse.trace.name`,
 * `langfuse.trace.input` / `.output`, and `session.id` / `user.id` (v4+; `langfuse.session.id` /
 * `langfuse.user.id` in older SDKs). Names: Langfuse's `LangfuseOtelSpanAttributes`, checked
 * against spans @langfuse/tracing@5 writes (test/fixtures/generate).
 */
import { isRecord } from '../importer.js';
import type { TraceInput } from '../schema.js';
import { costFromDetails, llmInput, llmOutput, usageFromDetails } from './langfuse.js';
import {
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
import { dict } from '../../util/dict.js';
import { quoted } from '../../redact/safeText.js';

const STRUCTURE = new Set(['agent', 'chain', 'span', 'event']);
const READ = new Set(['generation', 'tool', 'retriever']);

/** The observation type of a Langfuse span, lower-cased; undefined for other spans. */
export const langfuseType = (s: Span): string | undefined =>
  str(s.attributes['langfuse.observation.type'])?.toLowerCase();

export const isLangfuseAgent = (s: Span): boolean => langfuseType(s) === 'agent';

/** An observation type that is neither read nor structure (embedding, evaluator, guardrail, …). */
export const isUnreadLangfuseSpan = (s: Span): boolean => {
  const t = langfuseType(s);
  return t !== undefined && !READ.has(t) && !STRUCTURE.has(t);
};

const attr = (s: Span, key: string): unknown => maybeJson(s.attributes[`langfuse.observation.${key}`]);

/** A JSON-object attribute's non-negative numbers; anything else is reported and left out. */
function numbers(span: Span, key: string, ctx: MapContext): Record<string, unknown> {
  const raw = attr(span, key);
  if (raw === undefined) return {};
  if (!isRecord(raw)) {
    ctx.problem(span, `attributes["langfuse.observation.${key}"]`, 'not a JSON object of numbers');
    return {};
  }
  return raw;
}

const failed = (s: Span): boolean =>
  str(s.attributes['langfuse.observation.level'])?.toUpperCase() === 'ERROR' || s.status.code === 'error';

const errorOf = (s: Span): string =>
  str(s.attributes['langfuse.observation.status_message']) ?? spanError(s) ?? 'error';

function generationStep(span: Span, ctx: MapContext): StepInput {
  const usageRaw = numbers(span, 'usage_details', ctx);
  const counts = dict<number>();
  for (const [k, v] of Object.entries(usageRaw)) {
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) counts[k] = v;
    else if (v !== null)
      ctx.problem(
        span,
        `attributes["langfuse.observation.usage_details"].${k}`,
        `not a non-negative number (got ${quoted(v)})`,
      );
  }
  const usage = usageFromDetails(counts);
  const cost = costFromDetails(numbers(span, 'cost_details', ctx));
  const output = llmOutput(attr(span, 'output'));
  const meta = attr(span, 'metadata');
  const finish = isRecord(meta) ? (str(meta.finish_reason) ?? str(meta.finishReason)) : undefined;
  const step = llmStepFromSpan(span, {
    model: firstStr(span.attributes, 'langfuse.observation.model.name', 'gen_ai.request.model') ?? 'unknown',
    provider: isRecord(meta) ? str(meta.provider) : undefined,
    input: llmInput(attr(span, 'input')),
    output,
    finishReason: finish,
    inputTokens: usage?.inputTokens,
    outputTokens: usage?.outputTokens,
    cachedInputTokens: usage?.cachedInputTokens,
    cacheWriteInputTokens: usage?.cacheWriteInputTokens,
    costUsd: cost,
  });
  if (step.type === 'llm' && failed(span)) step.error = errorOf(span);
  return step;
}

function toolStep(span: Span): StepInput {
  const args = attr(span, 'input');
  const result = attr(span, 'output');
  const isError = failed(span);
  return {
    type: 'tool',
    name: span.name || 'unknown',
    ...(args !== undefined ? { args } : {}),
    ...(result !== undefined ? { result } : {}),
    status: isError ? 'error' : 'ok',
    ...(isError ? { error: errorOf(span) } : {}),
    ...spanTiming(span),
  };
}

function retrievalStep(span: Span): StepInput {
  const input = attr(span, 'input');
  const output = attr(span, 'output');
  const query =
    typeof input === 'string'
      ? input
      : isRecord(input)
        ? (str(input.query) ?? JSON.stringify(input))
        : undefined;
  const docs = Array.isArray(output) ? output : isRecord(output) ? output.documents : undefined;
  const results = Array.isArray(docs)
    ? docs.map((d) => {
        if (typeof d === 'string') return { content: d };
        if (!isRecord(d)) return { content: JSON.stringify(d) };
        const content = d.pageContent ?? d.page_content ?? d.content ?? d.text;
        return {
          ...(typeof d.id === 'string' ? { id: d.id } : {}),
          ...(typeof d.score === 'number' ? { score: d.score } : {}),
          content: typeof content === 'string' ? content : JSON.stringify(d),
        };
      })
    : [];
  return { type: 'retrieval', ...(query ? { query } : {}), results, ...spanTiming(span) };
}

/** The step a Langfuse observation span records; undefined for structure and types not read. */
export function langfuseStep(span: Span, ctx: MapContext): StepInput | undefined {
  switch (langfuseType(span)) {
    case 'generation':
      return generationStep(span, ctx);
    case 'tool':
      return toolStep(span);
    case 'retriever':
      return retrievalStep(span);
    default:
      return undefined;
  }
}

/** Trace fields from Langfuse's trace attributes (on any span) and the root observation. */
export function langfuseTraceFields(root: Span | undefined, spans: Span[]): Partial<TraceInput> {
  const all = root ? [root, ...spans] : spans;
  const any = (...keys: string[]) => {
    for (const s of all) {
      const v = firstStr(s.attributes, ...keys);
      if (v) return v;
    }
    return undefined;
  };
  const fields: Partial<TraceInput> = {};
  const name = any('langfuse.trace.name');
  const agentId = name ?? (root && isLangfuseAgent(root) ? root.name || undefined : undefined);
  if (agentId) fields.agentId = agentId;
  const sessionId = any('langfuse.session.id', 'session.id');
  if (sessionId) fields.sessionId = sessionId;
  const version = any('langfuse.release', 'langfuse.version');
  if (version) fields.agentVersion = version;
  const traceInput = all.map((s) => s.attributes['langfuse.trace.input']).find((v) => v !== undefined);
  const input = traceInput ?? (root ? root.attributes['langfuse.observation.input'] : undefined);
  if (input !== undefined) fields.input = maybeJson(input);
  const traceOutput = all.map((s) => s.attributes['langfuse.trace.output']).find((v) => v !== undefined);
  const output = traceOutput ?? (root ? root.attributes['langfuse.observation.output'] : undefined);
  if (output !== undefined) fields.output = maybeJson(output);
  const metadata = dict<unknown>();
  const userId = any('langfuse.user.id', 'user.id');
  if (userId) metadata.userId = userId;
  if (name) metadata.traceName = name;
  if (root && failed(root)) {
    fields.status = 'error';
    metadata.error = errorOf(root);
  }
  if (Object.keys(metadata).length > 0) fields.metadata = metadata;
  return fields;
}

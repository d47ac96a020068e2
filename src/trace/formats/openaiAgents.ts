/**
 * The OpenAI Agents SDK's own trace export (`@openai/agents`, `openai-agents` in Python): what its
 * BatchTraceProcessor and OpenAITracingExporter send to the traces ingest endpoint, a request body
 * `{ "data": [ …traces and spans ] }` (one per line when several are saved), or the items one per
 * line. Checked against the bodies the real SDK sends (test/fixtures/generate/openai-agents-export.mjs).
 *
 *   {"object": "trace", "id": "trace_…", "workflow_name": "Agent workflow", "group_id": …, "metadata": {}}
 *   {"object": "trace.span", "id": "span_…", "trace_id": "trace_…", "parent_id": …, "started_at": …,
 *    "ended_at": …, "span_data": { "type": "agent" | "generation" | "function" | "response" | … }, "error": …}
 *
 * A trace is its spans (the trace item names the workflow and the group, read as the session); the
 * agent span names the agent and its tools. `generation` spans are the LLM calls (the chat
 * completions the model returned, usage included), `function` spans the tool calls; `response`
 * spans (the Responses API, which exports only the response id) are counted as unread, as are
 * spans of other kinds that record work. Steps are ordered by their start.
 */
import {
  isRecord,
  type Importer,
  type ImportSink,
  type ImportedTrace,
  type ReaderOptions,
} from '../importer.js';
import type { TraceInput } from '../schema.js';
import { linkIssuedBy } from '../issuedBy.js';
import { OpenGroups } from './openGroups.js';
import { maybeJson, str, toChatMessages, type StepInput } from './otlp.js';
import { dict } from '../../util/dict.js';

type Item = Record<string, unknown>;

const isItem = (v: unknown): v is Item =>
  isRecord(v) && (v.object === 'trace' || v.object === 'trace.span') && typeof v.id === 'string';

/** The items of one parsed value: a request body's `data`, or one item. */
function itemsOf(value: unknown): Item[] | undefined {
  if (isItem(value)) return [value];
  if (isRecord(value) && Array.isArray(value.data) && value.data.length > 0 && value.data.every(isItem))
    return value.data as Item[];
  return undefined;
}

const traceIdOf = (item: Item): string | undefined =>
  item.object === 'trace' ? str(item.id) : str(item.trace_id);

/** Span kinds that are structure: the run, its turns, handoffs between agents, guardrail checks. */
const STRUCTURE = new Set(['agent', 'custom', 'handoff', 'guardrail', 'task', 'turn']);

const data = (span: Item): Item => (isRecord(span.span_data) ? span.span_data : {});
const kind = (span: Item): string | undefined => str(data(span).type);
const timing = (span: Item): { startedAt?: string; durationMs?: number } => {
  const start = str(span.started_at);
  const end = str(span.ended_at);
  const ms = start && end ? Date.parse(end) - Date.parse(start) : NaN;
  return {
    ...(start ? { startedAt: start } : {}),
    ...(Number.isFinite(ms) && ms >= 0 ? { durationMs: ms } : {}),
  };
};
const errorOf = (span: Item): string | undefined => {
  const e = span.error;
  if (!isRecord(e)) return undefined;
  const detail = isRecord(e.data) ? str(e.data.error) : undefined;
  return [str(e.message), detail].filter(Boolean).join(': ') || undefined;
};
const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** A generation span: the model's chat completion (first choice) with its usage. */
function llmStep(span: Item): StepInput {
  const d = data(span);
  const completion = Array.isArray(d.output) && isRecord(d.output[0]) ? d.output[0] : undefined;
  const choice = completion && Array.isArray(completion.choices) ? completion.choices[0] : undefined;
  const message = isRecord(choice) ? choice.message : undefined;
  const usage = isRecord(completion?.usage) ? completion.usage : isRecord(d.usage) ? d.usage : {};
  const details = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const cached = count(details.cached_tokens) ?? count(usage.cached_input_tokens);
  const output = message !== undefined ? toChatMessages(message, 'assistant')[0] : undefined;
  const finish = isRecord(choice) ? str(choice.finish_reason) : undefined;
  const error = errorOf(span);
  const input = Array.isArray(d.input) ? d.input.flatMap((m) => toChatMessages(m)) : undefined;
  return {
    type: 'llm',
    model: str(completion?.model) ?? str(d.model) ?? 'unknown',
    name: 'generation',
    ...(input ? { input } : {}),
    ...(output ? { output } : {}),
    ...(finish ? { finishReason: finish } : {}),
    usage: {
      inputTokens: count(usage.prompt_tokens) ?? count(usage.input_tokens) ?? 0,
      outputTokens: count(usage.completion_tokens) ?? count(usage.output_tokens) ?? 0,
      ...(cached !== undefined ? { cachedInputTokens: cached } : {}),
    },
    ...(error ? { error } : {}),
    ...timing(span),
  };
}

/** A function span: a tool call, its arguments and output (JSON text when they are). */
function toolStep(span: Item): StepInput {
  const d = data(span);
  const error = errorOf(span);
  return {
    type: 'tool',
    name: str(d.name) ?? 'unknown',
    ...(d.input !== undefined ? { args: maybeJson(d.input) } : {}),
    ...(d.output !== undefined && d.output !== null ? { result: maybeJson(d.output) } : {}),
    status: error ? 'error' : 'ok',
    ...(error ? { error } : {}),
    ...timing(span),
  };
}

interface Group {
  trace?: Item;
  spans: Item[];
}

function buildTrace(id: string, group: Group): TraceInput {
  const spans = [...group.spans].sort((a, b) =>
    (str(a.started_at) ?? '').localeCompare(str(b.started_at) ?? ''),
  );
  // The first agent to run (the SDK wraps it in a `task` span; handoffs start later agents).
  const agent = spans.find((s) => kind(s) === 'agent');
  const steps: StepInput[] = [];
  const unread = dict<number>();
  for (const s of spans) {
    const k = kind(s) ?? 'unknown';
    if (k === 'generation') steps.push(llmStep(s));
    else if (k === 'function') steps.push(toolStep(s));
    else if (!STRUCTURE.has(k)) unread[k] = (unread[k] ?? 0) + 1;
  }
  linkIssuedBy(steps);
  const a = agent ? data(agent) : {};
  const tools = Array.isArray(a.tools) ? a.tools.filter((t): t is string => typeof t === 'string') : [];
  const first = spans[0];
  const last = spans.reduce<string | undefined>((m, s) => {
    const e = str(s.ended_at);
    return e && (!m || e > m) ? e : m;
  }, undefined);
  const failed = agent ? errorOf(agent) : undefined;
  const lastLlm = [...steps].reverse().find((s) => s.type === 'llm');
  const answer =
    lastLlm?.type === 'llm' && typeof lastLlm.output === 'object' ? lastLlm.output.content : undefined;
  const metadata = dict<unknown>();
  const workflow = str(group.trace?.workflow_name);
  if (workflow) metadata.workflowName = workflow;
  if (Object.keys(unread).length > 0) metadata.unreadSpans = unread;
  if (failed) metadata.error = failed;
  const session = str(group.trace?.group_id);
  const firstLlm = steps.find((s) => s.type === 'llm');
  const question =
    firstLlm?.type === 'llm' && Array.isArray(firstLlm.input)
      ? firstLlm.input.find((m) => m.role === 'user')?.content
      : undefined;
  return {
    id,
    ...(str(a.name) ? { agentId: str(a.name) } : workflow ? { agentId: workflow } : {}),
    ...(session ? { sessionId: session } : {}),
    status: failed ? 'error' : 'ok',
    ...(first && str(first.started_at) ? { startedAt: str(first.started_at) } : {}),
    ...(last ? { endedAt: last } : {}),
    ...(question !== undefined ? { input: question } : {}),
    ...(answer !== undefined ? { output: answer } : {}),
    ...(tools.length > 0 ? { availableTools: tools } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    steps,
  };
}

export const openaiAgentsImporter: Importer = {
  format: 'openai-agents',
  sniff: (value) => itemsOf(value) !== undefined,
  createReader(sink: ImportSink, options: ReaderOptions = {}) {
    const held = new OpenGroups<Group>(sink, options.maxOpenTraces);
    const build = ([id, group]: [string, Group]): ImportedTrace => {
      const first = group as Group & { line?: number };
      return { trace: buildTrace(id, group), ...(first.line !== undefined ? { line: first.line } : {}) };
    };
    return {
      push(value, line) {
        const items = itemsOf(value);
        if (!items) {
          sink.problem({
            ...(line !== undefined ? { line } : {}),
            message:
              'not an OpenAI Agents SDK trace export (expected {"data": [traces and spans]} or one trace or span a line)',
          });
          return [];
        }
        items.forEach((item, i) => {
          const id = traceIdOf(item);
          if (!id) {
            sink.problem({
              ...(line !== undefined ? { line } : {}),
              field: `data[${i}].trace_id`,
              message: 'missing',
            });
            return;
          }
          const group = held.append(id, line, () => {
            const g: Group & { line?: number } = { spans: [] };
            if (line !== undefined) g.line = line;
            return g;
          });
          if (item.object === 'trace') group.trace = item;
          else group.spans.push(item);
        });
        return held.overflow().map(build);
      },
      end: () => held.drain().map(build),
      groupKey: (rawId) => rawId,
      close(key) {
        const group = held.take(key);
        return group ? [build([key, group])] : [];
      },
    };
  },
};

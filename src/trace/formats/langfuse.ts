/**
 * Langfuse exports: a trace with its observations (`GET /api/public/traces/{id}`, the UI's JSON
 * export), an array of them, JSONL of them, or an API page `{data: [...], meta}`. Loose
 * observations (`GET /api/public/observations`, or JSONL of observations) are grouped by `traceId`
 * and joined with a trace header of the same id when one comes (a header whose `observations` are
 * only ids); such traces are held until the loader closes them after their last line (see
 * lastLines.ts), until end(), or, reading a pipe, until the window of open traces is full (see
 * OpenGroups).
 *
 * Observations are walked depth-first through `parentObservationId` (siblings by `startTime`; an
 * observation whose parent is not in the export counts as a root). Only three types become steps:
 * - GENERATION → `llm`: `model`; usage from `usageDetails` — every key containing "input" is input
 *   (Langfuse keeps cache reads apart from `input`, so they add up), keys containing "output" are
 *   output, `cache_read_input_tokens` / `input_cached_tokens` / … are the cached part of the input,
 *   `cache_creation_input_tokens` / `input_cache_write` / … the part written to the cache;
 *   else the legacy `usage {input, output}` / `{promptTokens, completionTokens}`; `costUsd` from
 *   `costDetails.total` (else the sum of its parts), else the deprecated `calculatedTotalCost` /
 *   `totalCost` when above 0 (they read 0 where Langfuse had no price); costSource 'recorded'; level ERROR →
 *   `error` = `statusMessage`; finish reason from metadata or the output message;
 * - TOOL → `tool` (args = input, result = output), level ERROR → status 'error';
 * - RETRIEVER → `retrieval`: query from the input, documents from the output.
 * AGENT, CHAIN, SPAN, EVENT, EVALUATOR, EMBEDDING and GUARDRAIL are structure, not steps (their
 * children are walked). No SPAN is guessed to be a tool: Langfuse documents no such convention.
 * EMBEDDING calls are left out (an llm step without output would look like an empty response), so
 * their tokens and cost are not counted.
 *
 * Trace: id; sessionId; agentId from `metadata.agentId` / `agent_id`, else the trace name, else the
 * name of a root AGENT observation; agentVersion from `release`, else `version`; status 'error' when
 * a root observation has level ERROR or the last step failed (an earlier failed step that the run
 * recovered from does not fail the run), else 'ok'; userId, tags and environment go to metadata.
 */
import {
  isRecord,
  type ImportSink,
  type ImportedTrace,
  type Importer,
  type ReaderOptions,
} from '../importer.js';
import { OpenGroups } from './openGroups.js';
import { parseTimestamp } from '../timestamp.js';
import type { ChatMessage, TraceInput } from '../schema.js';
import { toChatMessage, toChatMessages } from './openaiMessages.js';
import { outcomeFromLangfuseScores } from '../outcome.js';
import { dict } from '../../util/dict.js';
import { quoted } from '../../redact/safeText.js';
import { linkIssuedBy } from '../issuedBy.js';
import type { CallUsage } from './providerUsage.js';

type StepInput = NonNullable<TraceInput['steps']>[number];
type LlmStepInput = Extract<StepInput, { type: 'llm' }>;
type RetrievalResult = NonNullable<Extract<StepInput, { type: 'retrieval' }>['results']>[number];
type Obj = Record<string, unknown>;
/** A trace whose loose observations are being gathered. */
interface HeldTrace {
  header?: Obj;
  line: number | undefined;
  observations: RawObservation[];
  path: string;
}
/** An observation as read, with where it was read (for problems). */
interface RawObservation {
  value: unknown;
  at: string;
  line: number | undefined;
}

const OBSERVATION_TYPES = new Set([
  'SPAN',
  'GENERATION',
  'EVENT',
  'AGENT',
  'TOOL',
  'CHAIN',
  'RETRIEVER',
  'EVALUATOR',
  'EMBEDDING',
  'GUARDRAIL',
]);

function looksLikeTrace(v: unknown): boolean {
  return isRecord(v) && typeof v.id === 'string' && Array.isArray(v.observations) && !('steps' in v);
}

function looksLikeObservation(v: unknown): boolean {
  return (
    isRecord(v) &&
    typeof v.id === 'string' &&
    typeof v.traceId === 'string' &&
    typeof v.type === 'string' &&
    OBSERVATION_TYPES.has(v.type) &&
    'startTime' in v
  );
}

function looksLikeLangfuse(v: unknown): boolean {
  return looksLikeTrace(v) || looksLikeObservation(v);
}

function isApiPage(v: unknown): v is { data: unknown[] } {
  return isRecord(v) && Array.isArray(v.data) && !('id' in v) && !('observations' in v);
}

/** A field path: `a.b`, or just `b` at the top level. */
const join = (base: string, key: string): string => (base ? `${base}.${key}` : key);

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** An observation's time: ISO, or an epoch number in any unit (exports from the API use ISO). */
const timeOf = parseTimestamp;

/**
 * Token counts from `usageDetails` (also the OTel SDK's `langfuse.observation.usage_details`): keys
 * containing "input" are input (cache reads are kept apart from `input`, so they add up), keys
 * containing "output" are output; undefined when there is no key but `total`.
 */
export function usageFromDetails(details: Record<string, number>): CallUsage | undefined {
  const keys = Object.keys(details).filter((k) => k !== 'total');
  if (keys.length === 0) return undefined;
  let input = 0;
  let output = 0;
  let cached = 0;
  let written = 0;
  for (const k of keys) {
    const n = details[k]!;
    const key = k.toLowerCase();
    if (key.includes('input') || key === 'prompt_tokens') {
      input += n;
      if (key.includes('cache') && (key.includes('creation') || key.includes('write'))) written += n;
      else if (key.includes('cache') && (key.includes('read') || key.includes('cached'))) cached += n;
    } else if (key.includes('output') || key === 'completion_tokens') {
      output += n;
    }
  }
  return {
    inputTokens: input,
    outputTokens: output,
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
    ...(written > 0 ? { cacheWriteInputTokens: written } : {}),
  };
}

/** USD from `costDetails`: its `total`, else the sum of its parts; undefined when it has none. */
export function costFromDetails(costs: Record<string, unknown>): number | undefined {
  if (typeof costs.total === 'number' && Number.isFinite(costs.total) && costs.total >= 0) return costs.total;
  const parts = Object.values(costs).filter(
    (v): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0,
  );
  return parts.length > 0 ? parts.reduce((a, b) => a + b, 0) : undefined;
}

export function llmInput(input: unknown): string | ChatMessage[] | undefined {
  if (input === undefined || input === null) return undefined;
  if (typeof input === 'string') return input;
  if (Array.isArray(input) && input.every((m) => isRecord(m) && typeof m.role === 'string')) {
    return toChatMessages(input);
  }
  if (isRecord(input) && Array.isArray(input.messages)) return toChatMessages(input.messages);
  return JSON.stringify(input);
}

export function llmOutput(output: unknown): string | ChatMessage | undefined {
  if (output === undefined || output === null) return undefined;
  if (typeof output === 'string') return output;
  if (isRecord(output)) {
    if (typeof output.role === 'string' || 'tool_calls' in output)
      return toChatMessage({ role: 'assistant', ...output });
    // A raw chat completion: {choices: [{message, finish_reason}]}.
    const choice = Array.isArray(output.choices) ? output.choices[0] : undefined;
    if (isRecord(choice) && isRecord(choice.message))
      return toChatMessage({ role: 'assistant', ...choice.message });
    if (typeof output.content === 'string') return output.content;
  }
  if (
    Array.isArray(output) &&
    output.length === 1 &&
    isRecord(output[0]) &&
    typeof output[0].role === 'string'
  ) {
    return toChatMessage(output[0]);
  }
  return JSON.stringify(output);
}

function finishReasonOf(obs: Obj): string | undefined {
  const meta = isRecord(obs.metadata) ? obs.metadata : {};
  const out = isRecord(obs.output) ? obs.output : {};
  const choice = Array.isArray(out.choices) && isRecord(out.choices[0]) ? out.choices[0] : {};
  for (const v of [
    meta.finish_reason,
    meta.finishReason,
    meta.stop_reason,
    out.finish_reason,
    out.finishReason,
    out.stop_reason,
    choice.finish_reason,
  ]) {
    if (typeof v === 'string') return v;
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  }
  return undefined;
}

function retrievalResults(output: unknown): RetrievalResult[] {
  let docs: unknown = output;
  if (isRecord(output)) docs = output.documents ?? output.results ?? output.docs ?? output.nodes;
  if (typeof docs === 'string') return [{ content: docs }];
  if (!Array.isArray(docs))
    return output === undefined || output === null ? [] : [{ content: JSON.stringify(output) }];
  return docs.map((d): RetrievalResult => {
    if (typeof d === 'string') return { content: d };
    if (!isRecord(d)) return { content: JSON.stringify(d) };
    const meta = isRecord(d.metadata) ? d.metadata : {};
    const r: RetrievalResult = {};
    const id = d.id ?? meta.id ?? meta.source;
    if (typeof id === 'string' || typeof id === 'number') r.id = String(id);
    const score = d.score ?? meta.score;
    if (typeof score === 'number') r.score = score;
    const content = d.page_content ?? d.pageContent ?? d.content ?? d.text;
    r.content = typeof content === 'string' ? content : JSON.stringify(d);
    return r;
  });
}

function retrievalQuery(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (isRecord(input)) {
    const q = input.query ?? input.input ?? input.question;
    if (typeof q === 'string') return q;
  }
  return input === undefined || input === null ? undefined : JSON.stringify(input);
}

/**
 * The agent each observation belongs to: the nearest AGENT observation at or above it (by
 * `parentObservationId`), by its name. Memoised; a parent cycle ends the climb.
 */
function agentsByObservation(observations: readonly Obj[]): (obs: Obj) => string | undefined {
  const byId = new Map<string, Obj>();
  for (const o of observations) if (typeof o.id === 'string' && !byId.has(o.id)) byId.set(o.id, o);
  const known = new Map<Obj, string | undefined>();
  return (obs) => {
    const climbed: Obj[] = [];
    const onPath = new Set<Obj>();
    let agent: string | undefined;
    for (let o: Obj | undefined = obs; o !== undefined && !onPath.has(o);) {
      if (known.has(o)) {
        agent = known.get(o);
        break;
      }
      climbed.push(o);
      onPath.add(o);
      if (String(o.type).toUpperCase() === 'AGENT' && str(o.name)) {
        agent = str(o.name);
        break;
      }
      const parent: string | undefined =
        typeof o.parentObservationId === 'string' ? o.parentObservationId : undefined;
      o = parent !== undefined && parent !== o.id ? byId.get(parent) : undefined;
    }
    for (const o of climbed) known.set(o, agent);
    return agent;
  };
}

export const langfuseImporter: Importer = {
  format: 'langfuse',
  sniff(value) {
    if (Array.isArray(value)) return value.length > 0 && looksLikeLangfuse(value[0]);
    if (isApiPage(value)) return value.data.length > 0 && looksLikeLangfuse(value.data[0]);
    return looksLikeLangfuse(value);
  },
  createReader(sink: ImportSink, options: ReaderOptions = {}) {
    /** Traces waiting for loose observations, by trace id, in order of first appearance. */
    const held = new OpenGroups<HeldTrace>(sink, options.maxOpenTraces);

    const holdFor = (id: string, line: number | undefined, path: string) =>
      held.append(id, line, () => ({ line, observations: [], path }));

    /** Numbers of a usage object; a value that is not a count is reported and ignored. */
    const counts = (u: Obj, line: number | undefined, field: string): Record<string, number> => {
      const out = dict<number>();
      for (const [k, v] of Object.entries(u)) {
        if (v === null || v === undefined || k === 'unit') continue;
        if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
          if (!/cost|price/i.test(k)) {
            sink.problem({
              line,
              field: join(field, k),
              message: `expected a non-negative number, got ${quoted(v)}`,
            });
          }
          continue;
        }
        out[k] = v;
      }
      return out;
    };

    const generationStep = (obs: Obj, line: number | undefined, at: string): LlmStepInput => {
      const step: LlmStepInput = {
        type: 'llm',
        // Not `modelId`: that is the id of Langfuse's model definition (a price entry), not a model
        // name; a generation that names no model is an unknown model.
        model: str(obs.model) ?? 'unknown',
        usage: { inputTokens: 0, outputTokens: 0 },
      };
      const details = isRecord(obs.usageDetails)
        ? counts(obs.usageDetails, line, join(at, 'usageDetails'))
        : {};
      const fromDetails = usageFromDetails(details);
      if (fromDetails) {
        step.usage = fromDetails;
      } else {
        // Legacy: observation.usage {input, output, total} or top-level promptTokens / completionTokens.
        const legacy = isRecord(obs.usage) ? counts(obs.usage, line, join(at, 'usage')) : {};
        const input = legacy.input ?? legacy.promptTokens ?? legacy.prompt_tokens ?? obs.promptTokens;
        const output =
          legacy.output ?? legacy.completionTokens ?? legacy.completion_tokens ?? obs.completionTokens;
        step.usage = {
          inputTokens: typeof input === 'number' && input >= 0 ? input : 0,
          outputTokens: typeof output === 'number' && output >= 0 ? output : 0,
        };
      }
      const legacyUsage = isRecord(obs.usage) ? obs.usage : {};
      const cost =
        costFromDetails(isRecord(obs.costDetails) ? obs.costDetails : {}) ??
        // The deprecated fields read 0 where Langfuse had no price: 0 there means unknown, not free.
        [obs.calculatedTotalCost, obs.totalCost, legacyUsage.totalCost].find(
          (v): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0,
        );
      if (cost !== undefined && Number.isFinite(cost) && cost >= 0) {
        step.costUsd = cost;
        step.costSource = 'recorded';
      }
      const input = llmInput(obs.input);
      if (input !== undefined) step.input = input;
      const output = llmOutput(obs.output);
      if (output !== undefined) step.output = output;
      const finish = finishReasonOf(obs);
      if (finish) step.finishReason = finish;
      const meta = isRecord(obs.metadata) ? obs.metadata : {};
      const provider = str(meta.provider) ?? str(meta.ls_provider);
      if (provider) step.provider = provider;
      if (obs.level === 'ERROR') step.error = str(obs.statusMessage) ?? 'error';
      const name = str(obs.name);
      if (name) step.name = name;
      return step;
    };

    const stepOf = (obs: Obj, line: number | undefined, at: string): StepInput | undefined => {
      const type = typeof obs.type === 'string' ? obs.type.toUpperCase() : '';
      let step: StepInput | undefined;
      if (type === 'GENERATION') step = generationStep(obs, line, at);
      else if (type === 'TOOL') {
        const failed = obs.level === 'ERROR';
        const meta = isRecord(obs.metadata) ? obs.metadata : {};
        const callId = str(meta.tool_call_id) ?? str(meta.toolCallId);
        step = {
          type: 'tool',
          name: str(obs.name) ?? 'unknown',
          ...(obs.input !== undefined && obs.input !== null ? { args: obs.input } : {}),
          ...(obs.output !== undefined && obs.output !== null ? { result: obs.output } : {}),
          status: failed ? 'error' : 'ok',
          ...(failed ? { error: str(obs.statusMessage) ?? 'error' } : {}),
          ...(callId ? { callId } : {}),
        };
      } else if (type === 'RETRIEVER') {
        const query = retrievalQuery(obs.input);
        step = {
          type: 'retrieval',
          ...(query !== undefined ? { query } : {}),
          results: retrievalResults(obs.output),
        };
      }
      if (!step) return undefined;
      const start = timeOf(obs.startTime);
      const end = timeOf(obs.endTime);
      if (start !== undefined) {
        step.startedAt = new Date(start).toISOString();
        if (end !== undefined && end >= start) step.durationMs = end - start;
      }
      return step;
    };

    const build = (header: Obj, raw: RawObservation[]): TraceInput => {
      const observations: { obs: Obj; index: number; at: string; line: number | undefined }[] = [];
      raw.forEach(({ value: o, at, line }, i) => {
        if (!isRecord(o)) {
          sink.problem({ line, field: at, message: 'expected an observation object' });
          return;
        }
        if (typeof o.type !== 'string') {
          sink.problem({
            line,
            field: join(at, 'type'),
            message: 'missing observation type (GENERATION, SPAN, TOOL, …)',
          });
          return;
        }
        observations.push({ obs: o, index: i, at, line });
      });

      // Depth-first through parentObservationId; siblings by startTime, ties in export order.
      const ids = new Set(
        observations.map((o) => o.obs.id).filter((id): id is string => typeof id === 'string'),
      );
      const children = new Map<string | undefined, typeof observations>();
      for (const o of observations) {
        const parent = typeof o.obs.parentObservationId === 'string' ? o.obs.parentObservationId : undefined;
        const key = parent !== undefined && ids.has(parent) && parent !== o.obs.id ? parent : undefined;
        const list = children.get(key) ?? [];
        list.push(o);
        children.set(key, list);
      }
      const byStart = (a: (typeof observations)[number], b: (typeof observations)[number]) =>
        (timeOf(a.obs.startTime) ?? Infinity) - (timeOf(b.obs.startTime) ?? Infinity) || a.index - b.index;
      for (const list of children.values()) list.sort(byStart);
      const roots = children.get(undefined) ?? [];
      const ordered: typeof observations = [];
      const visited = new Set<(typeof observations)[number]>();
      const walk = (start: typeof observations) => {
        const stack = [...start].reverse();
        while (stack.length > 0) {
          const o = stack.pop()!;
          if (visited.has(o)) continue;
          visited.add(o);
          ordered.push(o);
          const kids = typeof o.obs.id === 'string' ? children.get(o.obs.id) : undefined;
          if (kids) for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]!);
        }
      };
      walk(roots);
      // A parent cycle leaves observations unreachable from any root: keep them, in time order.
      const rest = observations.filter((o) => !visited.has(o)).sort(byStart);
      if (rest.length > 0) {
        sink.problem({
          line: rest[0]!.line,
          field: join(rest[0]!.at, 'parentObservationId'),
          message: `${rest.length} observation(s) form a parentObservationId cycle; read in time order`,
        });
        walk(rest);
      }

      const steps: StepInput[] = [];
      const agentOf = agentsByObservation(observations.map((o) => o.obs));
      for (const o of ordered) {
        const step = stepOf(o.obs, o.line, o.at);
        if (!step) continue;
        const agent = agentOf(o.obs);
        if (agent !== undefined && step.type !== 'retrieval' && step.type !== 'state') step.agent = agent;
        steps.push(step);
      }
      // A GENERATION's output lists the calls it asked for; the TOOL observations ran them.
      linkIssuedBy(steps);

      const metadata = isRecord(header.metadata) ? header.metadata : {};
      const rootAgent = roots.find((o) => String(o.obs.type).toUpperCase() === 'AGENT');
      const agentId =
        str(metadata.agentId) ??
        str(metadata.agent_id) ??
        str(header.name) ??
        (rootAgent ? str(rootAgent.obs.name) : undefined);
      const last = steps[steps.length - 1];
      const lastFailed =
        last !== undefined && (last.type === 'llm' || last.type === 'tool') && last.error !== undefined;
      const rootFailed = roots.some((o) => o.obs.level === 'ERROR');

      const trace: TraceInput = {
        id: String(header.id),
        status: rootFailed || lastFailed ? 'error' : 'ok',
        steps,
      };
      if (agentId) trace.agentId = agentId;
      const outcome = outcomeFromLangfuseScores(header.scores);
      if (outcome) trace.outcome = outcome;
      const version = str(header.release) ?? str(header.version);
      if (version) trace.agentVersion = version;
      const sessionId = str(header.sessionId);
      if (sessionId) trace.sessionId = sessionId;

      const starts = observations
        .map((o) => timeOf(o.obs.startTime))
        .filter((t): t is number => t !== undefined);
      const ends = observations
        .map((o) => timeOf(o.obs.endTime) ?? timeOf(o.obs.startTime))
        .filter((t): t is number => t !== undefined);
      const headerStart = timeOf(header.timestamp);
      const first = [headerStart, ...starts]
        .filter((t): t is number => t !== undefined)
        .reduce((a, b) => Math.min(a, b), Infinity);
      if (Number.isFinite(first)) trace.startedAt = new Date(first).toISOString();
      if (ends.length > 0) trace.endedAt = new Date(ends.reduce((a, b) => Math.max(a, b))).toISOString();
      if (header.input !== undefined && header.input !== null) trace.input = header.input;
      if (header.output !== undefined && header.output !== null) trace.output = header.output;

      const extra: Obj = { ...metadata };
      if (str(header.name)) extra.traceName = header.name;
      if (str(header.userId)) extra.userId = header.userId;
      if (Array.isArray(header.tags) && header.tags.length > 0) extra.tags = header.tags;
      if (str(header.environment)) extra.environment = header.environment;
      if (Object.keys(extra).length > 0) trace.metadata = extra;
      return trace;
    };

    const item = (value: unknown, line: number | undefined, path: string): ImportedTrace[] => {
      const field = path.replace(/\.$/, '') || undefined;
      if (!isRecord(value)) {
        sink.problem({
          line,
          field,
          message: 'expected a Langfuse trace {id, observations: [...]} or an observation',
        });
        return [];
      }
      if (typeof value.id === 'string' && Array.isArray(value.observations)) {
        const embedded = value.observations.length === 0 || value.observations.some((o) => isRecord(o));
        if (embedded) {
          // Loose observations of this trace that came earlier join it.
          const early = held.take(value.id, 'whole');
          const own = value.observations.map((o, i) => ({ value: o, at: `${path}observations[${i}]`, line }));
          return [{ trace: build(value, [...(early?.observations ?? []), ...own]), line }];
        }
        // Observations given as ids only: wait for the observations themselves.
        holdFor(value.id, line, path).header = value;
        return [];
      }
      if (looksLikeObservation(value)) {
        holdFor(value.traceId as string, line, path).observations.push({
          value,
          at: path.replace(/\.$/, ''),
          line,
        });
        return [];
      }
      if (typeof value.id !== 'string') {
        sink.problem({ line, field: path ? `${path}id` : 'id', message: 'missing trace id' });
      } else if ('observations' in value) {
        sink.problem({ line, field: `${path}observations`, message: 'expected an array of observations' });
      } else {
        sink.problem({
          line,
          field,
          message: 'expected a Langfuse trace {id, observations: [...]} or an observation',
        });
      }
      return [];
    };

    /** The trace of a closed group; a header whose observations never came is reported instead. */
    const finish = ([id, h]: [string, HeldTrace]): ImportedTrace[] => {
      if (h.observations.length === 0) {
        sink.problem({
          line: h.line,
          field: `${h.path}observations`,
          message: `trace ${id}: observations are listed by id only and none were found in the input; export the trace with its observations`,
        });
        return [];
      }
      return [{ trace: build(h.header ?? { id }, h.observations), line: h.line }];
    };

    return {
      push(value, line) {
        let out: ImportedTrace[];
        if (Array.isArray(value)) out = value.flatMap((v, i) => item(v, line, `[${i}].`));
        else if (isApiPage(value)) out = value.data.flatMap((v, i) => item(v, line, `data[${i}].`));
        else out = item(value, line, '');
        const evicted = held.overflow();
        return evicted.length === 0 ? out : out.concat(evicted.flatMap(finish));
      },
      end(): ImportedTrace[] {
        return held.drain().flatMap(finish);
      },
      // Observations are grouped by their traceId as written.
      groupKey: (rawId) => rawId,
      close(key) {
        const h = held.take(key);
        return h ? finish([key, h]) : [];
      },
    };
  },
};

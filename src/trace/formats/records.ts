/**
 * The flat LLM-call log of cost-waste tools (crashlens and friends): JSONL, one LLM call a line.
 *
 *   {"traceId": "t1", "startTime": "…", "endTime": "…", "input": {"model": "gpt-4", "prompt": "…"},
 *    "usage": {"prompt_tokens": 4, "completion_tokens": 2}, "cost": 0.0003, "output": "…"}
 *
 * Records that share a `traceId` are one trace, even when other traces' records sit between them:
 * a trace is held until the loader closes it after its last line (known from a first pass over the
 * file, see lastLines.ts), until end(), or, reading a pipe, until the window of open traces is
 * full (see OpenGroups). Steps are ordered by `startTime` (stable: ties and records
 * without a time keep file order). A trace is reported with the line of its first record.
 *
 * Also read: `model` / `prompt` / `messages` at the top level instead of under `input`; token counts
 * at the top level (`prompt_tokens`, …), in any provider's usage shape (OpenAI, Anthropic, Gemini:
 * see providerUsage.ts), with the cache reads and writes that shape records; the trace's agent and
 * session from any of its records' `metadata.agentId` / `agent_id` and `metadata.sessionId` /
 * `session_id`.
 *
 * What cannot be read is reported with its line and field, and the record is left out (a record
 * with wrong numbers would make the cost accounting wrong):
 * - no `traceId` — the record belongs to no trace;
 * - no `input` / `input.model` — an LLM call without a model cannot be priced or compared;
 * - no `usage` — accepted with 0 tokens only when a `cost` is recorded (the cost is what the waste
 *   accounting needs); otherwise reported, because 0 tokens would silently price the call at $0.
 * A bad `startTime` / `endTime` is reported as "timestamp ignored": the call is still analysed, only
 * without that time (its tokens and cost are what matter, and they are sound).
 *
 * Times are ISO 8601 strings or unix epoch numbers. A number carries no unit, and loggers differ
 * (Python's `time.time()` writes float seconds, JavaScript's `Date.now()` milliseconds, others
 * micro- or nanoseconds), so the unit is read from its size, as log tools usually do: below 1e11
 * seconds (fractions allowed), below 1e14 milliseconds, below 1e17 microseconds, else nanoseconds.
 * Each range is unambiguous for any date between 1973 and 5138. Times are kept to the millisecond,
 * as ISO strings are.
 */
import {
  isRecord,
  type ImportProblem,
  type ImportSink,
  type ImportedTrace,
  type Importer,
  type ReaderOptions,
} from '../importer.js';
import { OpenGroups } from './openGroups.js';
import { parseIsoMs } from '../measure.js';
import { parseTimestamp } from '../timestamp.js';
import type { ChatMessage, TraceInput } from '../schema.js';
import { quoted } from '../../redact/safeText.js';
import { toChatMessages } from './openaiMessages.js';
import { callUsage, looksLikeUsage } from './providerUsage.js';

type StepInput = NonNullable<TraceInput['steps']>[number];
type LlmStepInput = Extract<StepInput, { type: 'llm' }>;

interface HeldRecord {
  step: LlmStepInput;
  /** Start time in ms; records without one inherit the previous record's, for a stable order. */
  sortKey: number;
  arrival: number;
  endMs?: number;
  metadata?: Record<string, unknown>;
  input?: unknown;
  output?: unknown;
}

interface HeldTrace {
  id: string;
  line: number | undefined;
  records: HeldRecord[];
}

function describe(value: unknown): string {
  // Redacted before it is cut: a key cut in half is no longer recognisable as a key, so it would print.
  if (typeof value === 'string') return quoted(value, 40);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : String(value);
}

/** True when a value looks like one record of this format. */
function looksLikeRecord(value: unknown): boolean {
  if (!isRecord(value)) return false;
  if ('steps' in value || 'observations' in value || 'resourceSpans' in value || 'spanId' in value)
    return false;
  if ('messages' in value && !('traceId' in value)) return false;
  // A Langfuse observation has a traceId and a model too, but also its own id and an upper-case type.
  if ('parentObservationId' in value || 'usageDetails' in value) return false;
  if (
    typeof value.id === 'string' &&
    typeof value.type === 'string' &&
    value.type === value.type.toUpperCase()
  ) {
    return false;
  }
  const hasModel =
    (isRecord(value.input) && typeof value.input.model === 'string') || typeof value.model === 'string';
  const hasUsage = isRecord(value.usage) || typeof value.prompt_tokens === 'number';
  if (typeof value.traceId === 'string') return hasModel || hasUsage;
  return hasModel && hasUsage && 'startTime' in value;
}

export const recordsImporter: Importer = {
  format: 'records',
  sniff(value) {
    return Array.isArray(value) ? value.length > 0 && looksLikeRecord(value[0]) : looksLikeRecord(value);
  },
  createReader(sink: ImportSink, options: ReaderOptions = {}) {
    const traces = new OpenGroups<HeldTrace>(sink, options.maxOpenTraces);
    let arrival = 0;

    const readRecord = (rec: unknown, line: number | undefined, prefix: string) => {
      const problem = (p: Omit<ImportProblem, 'line'>) =>
        sink.problem({ line, ...p, field: p.field === undefined ? undefined : `${prefix}${p.field}` });
      if (!isRecord(rec)) {
        sink.problem({
          line,
          ...(prefix ? { field: prefix.replace(/\.$/, '') } : {}),
          message: `expected a record object, got ${describe(rec)}`,
        });
        return;
      }
      const traceId = rec.traceId ?? rec.trace_id;
      if (traceId === undefined || traceId === null || traceId === '') {
        problem({
          field: 'traceId',
          message: 'missing traceId; every record needs the id of the trace it belongs to',
        });
        return;
      }
      if (typeof traceId !== 'string' && typeof traceId !== 'number') {
        problem({ field: 'traceId', message: `expected a string, got ${describe(traceId)}` });
        return;
      }

      // Model and prompt: under `input`, or flattened to the top level.
      const input = rec.input;
      let model: unknown;
      let prompt: unknown;
      if (isRecord(input)) {
        model = input.model ?? rec.model;
        prompt = input.prompt ?? input.messages;
        if (model === undefined) {
          problem({
            field: 'input.model',
            message: 'missing input.model; an LLM call needs the model it ran on',
          });
          return;
        }
      } else if (input === undefined || input === null) {
        if (rec.model === undefined) {
          problem({ field: 'input', message: 'missing input; expected {model, prompt}' });
          return;
        }
        model = rec.model;
        prompt = rec.prompt ?? rec.messages;
      } else if (typeof input === 'string' && typeof rec.model === 'string') {
        model = rec.model;
        prompt = input;
      } else {
        problem({ field: 'input', message: `expected an object {model, prompt}, got ${describe(input)}` });
        return;
      }
      if (typeof model !== 'string' || model === '') {
        problem({
          field: isRecord(input) ? 'input.model' : 'model',
          message: `expected a model name, got ${describe(model)}`,
        });
        return;
      }

      // Cost first: it decides whether a record without usage is still useful.
      let cost: number | undefined;
      if (rec.cost !== undefined && rec.cost !== null) {
        if (typeof rec.cost !== 'number' || !Number.isFinite(rec.cost) || rec.cost < 0) {
          problem({
            field: 'cost',
            message: `expected a non-negative number (USD), got ${describe(rec.cost)}`,
          });
          return;
        }
        cost = rec.cost;
      }

      // Usage: `usage.{prompt,completion}_tokens`, `usage.{input,output}_tokens`, or top-level counts.
      const usageObj = isRecord(rec.usage) ? rec.usage : undefined;
      const usageBase = usageObj ? 'usage.' : '';
      const source: Record<string, unknown> | undefined = usageObj ?? (looksLikeUsage(rec) ? rec : undefined);
      if (rec.usage !== undefined && rec.usage !== null && !usageObj) {
        problem({
          field: 'usage',
          message: `expected an object {prompt_tokens, completion_tokens}, got ${describe(rec.usage)}`,
        });
        return;
      }
      let inputTokens = 0;
      let outputTokens = 0;
      let cachedInputTokens: number | undefined;
      let cacheWriteInputTokens: number | undefined;
      if (!source) {
        if (cost === undefined) {
          problem({
            field: 'usage',
            message:
              'missing usage (and no cost); expected {prompt_tokens, completion_tokens} so the call can be priced',
          });
          return;
        }
      } else {
        let unreadable = false;
        const usage = callUsage(source, (field, v) => {
          unreadable = true;
          problem({
            field: `${usageBase}${field}`,
            message: `expected a non-negative number, got ${describe(v)}`,
          });
        });
        if (unreadable) return;
        if (usage) {
          ({ inputTokens, outputTokens, cachedInputTokens, cacheWriteInputTokens } = usage);
        } else if (typeof source.total_tokens === 'number') {
          // Only total_tokens: the split is unknown, so count it all as input (the cheaper side).
          inputTokens = source.total_tokens;
        }
        // Without a cost the prompt's count is what prices the call: a record must have it.
        const promptCounted = ['prompt_tokens', 'input_tokens', 'promptTokenCount'].some(
          (k) => typeof source[k] === 'number',
        );
        const onlyTotal = usage === undefined && typeof source.total_tokens === 'number';
        if (!promptCounted && !onlyTotal && cost === undefined) {
          problem({ field: `${usageBase}prompt_tokens`, message: `missing ${usageBase}prompt_tokens` });
          return;
        }
      }

      // Timing: a bad timestamp is reported, and the call is still analysed without it. The message
      // says so, since the report lists it among records that could not be read.
      const time = (field: 'startTime' | 'endTime'): number | undefined => {
        const raw = rec[field];
        const ms = parseTimestamp(raw);
        if (raw !== undefined && raw !== null && ms === undefined) {
          problem({
            field,
            message: `expected an ISO 8601 time or a unix epoch number, got ${describe(raw)}; timestamp ignored, the call is still analysed`,
          });
        }
        return ms;
      };
      const startMs = time('startTime');
      const endMs = time('endTime');

      let promptInput: string | ChatMessage[] | undefined;
      if (typeof prompt === 'string') promptInput = prompt;
      else if (Array.isArray(prompt)) promptInput = toChatMessages(prompt);
      else if (prompt !== undefined && prompt !== null) promptInput = JSON.stringify(prompt);

      const output = rec.output ?? rec.completion ?? rec.response;
      const level = typeof rec.level === 'string' ? rec.level.toUpperCase() : undefined;
      const step: LlmStepInput = {
        type: 'llm',
        model,
        usage: {
          inputTokens,
          outputTokens,
          ...(cachedInputTokens !== undefined ? { cachedInputTokens } : {}),
          ...(cacheWriteInputTokens !== undefined ? { cacheWriteInputTokens } : {}),
        },
      };
      const provider = rec.provider ?? (isRecord(input) ? input.provider : undefined);
      if (typeof provider === 'string') step.provider = provider;
      if (promptInput !== undefined) step.input = promptInput;
      if (typeof output === 'string') step.output = output;
      else if (isRecord(output) && typeof output.role === 'string') step.output = toChatMessages([output])[0];
      else if (output !== undefined && output !== null) step.output = JSON.stringify(output);
      if (cost !== undefined) {
        step.costUsd = cost;
        step.costSource = 'recorded';
      }
      if (typeof rec.name === 'string') step.name = rec.name;
      const finish = rec.finish_reason ?? rec.finishReason;
      if (typeof finish === 'string') step.finishReason = finish;
      if (level === 'ERROR') {
        const msg =
          rec.statusMessage ?? rec.error ?? (isRecord(rec.metadata) ? rec.metadata.error : undefined);
        step.error = typeof msg === 'string' && msg !== '' ? msg : 'error';
      } else if (typeof rec.error === 'string' && rec.error !== '') {
        step.error = rec.error;
      }
      if (startMs !== undefined) {
        step.startedAt = new Date(startMs).toISOString();
        if (endMs !== undefined && endMs >= startMs) step.durationMs = endMs - startMs;
        else if (endMs !== undefined)
          problem({
            field: 'endTime',
            message: `is ${endMs < startMs - 1000 ? `${Math.round((startMs - endMs) / 1000)} s` : `${startMs - endMs} ms`} before startTime; the duration is ignored, the call is still analysed`,
          });
      }

      const id = String(traceId);
      const held = traces.append(id, line, () => ({ id, line, records: [] }));
      const previous = held.records[held.records.length - 1];
      held.records.push({
        step,
        sortKey: startMs ?? previous?.sortKey ?? Number.NEGATIVE_INFINITY,
        arrival: arrival++,
        ...(endMs !== undefined ? { endMs } : {}),
        ...(isRecord(rec.metadata) ? { metadata: rec.metadata } : {}),
        input: promptInput,
        output: step.output,
      });
    };

    const emit = ([, held]: [string, HeldTrace]): ImportedTrace => ({
      trace: buildTrace(held),
      line: held.line,
    });
    return {
      push(value, line) {
        if (Array.isArray(value)) value.forEach((v, i) => readRecord(v, line, `[${i}].`));
        else readRecord(value, line, '');
        return traces.overflow().map(emit);
      },
      end(): ImportedTrace[] {
        return traces.drain().map(emit);
      },
      // The reader keys a trace by String(traceId): the id as written (a number as String() writes it).
      groupKey: (rawId) => rawId,
      close(key) {
        const held = traces.take(key);
        return held ? [emit([key, held])] : [];
      },
    };
  },
};

function buildTrace(held: HeldTrace): TraceInput {
  const records = [...held.records].sort((a, b) => a.sortKey - b.sortKey || a.arrival - b.arrival);
  const steps = records.map((r) => r.step);
  const starts = records.map((r) => r.sortKey).filter((t) => Number.isFinite(t));
  const ends = records.map((r) => r.endMs ?? (r.step.startedAt ? parseIsoMs(r.step.startedAt) : undefined));
  const endTimes = ends.filter((t): t is number => t !== undefined && Number.isFinite(t));
  const first = records[0];
  const last = records[records.length - 1];
  const agentMeta = records
    .map((r) => r.metadata?.agentId ?? r.metadata?.agent_id)
    .find((a) => typeof a === 'string');
  const sessionMeta = records
    .map((r) => r.metadata?.sessionId ?? r.metadata?.session_id)
    .find((s) => typeof s === 'string' && s !== '');
  const trace: TraceInput = {
    id: held.id,
    // The last call failing is how a call log says the run failed; earlier failures were retried.
    status: last?.step.error !== undefined ? 'error' : 'ok',
    steps,
  };
  if (typeof agentMeta === 'string') trace.agentId = agentMeta;
  if (typeof sessionMeta === 'string') trace.sessionId = sessionMeta;
  // reduce, not Math.min(...xs): a trace may hold more records than the call stack has room for.
  if (starts.length > 0) trace.startedAt = new Date(starts.reduce((a, b) => Math.min(a, b))).toISOString();
  if (endTimes.length > 0) trace.endedAt = new Date(endTimes.reduce((a, b) => Math.max(a, b))).toISOString();
  if (first?.input !== undefined) trace.input = first.input;
  if (last?.output !== undefined) trace.output = last.output;
  return trace;
}

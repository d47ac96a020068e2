/** Small builders for the waste-detector tests: timed LLM calls and crashlens-shaped records. */
import { TraceSchema, type Trace, type TraceInput } from '../../../src/trace/schema.js';
import { llm, makeTrace } from '../../helpers/traceBuilder.js';

type StepInput = NonNullable<TraceInput['steps']>[number];

const BASE = Date.parse('2025-07-25T10:00:00Z');

/** ISO time `sec` seconds after 2025-07-25T10:00:00Z. */
export const at = (sec: number): string => new Date(BASE + sec * 1000).toISOString();

export interface CallSpec {
  model: string;
  provider?: string;
  prompt?: string;
  /** Seconds after the base time; omit for an untimed call. */
  t?: number;
  in?: number;
  out?: number;
  cost?: number;
  output?: string;
  error?: string;
}

export function call(c: CallSpec): StepInput {
  return llm({
    model: c.model,
    ...(c.provider !== undefined ? { provider: c.provider } : {}),
    ...(c.prompt !== undefined ? { input: c.prompt } : {}),
    usage: { inputTokens: c.in ?? 10, outputTokens: c.out ?? 5 },
    output: c.output ?? 'ok',
    ...(c.t !== undefined ? { startedAt: at(c.t) } : {}),
    ...(c.cost !== undefined ? { costUsd: c.cost, costSource: 'recorded' as const } : {}),
    ...(c.error !== undefined ? { error: c.error } : {}),
  });
}

export function calls(specs: CallSpec[], id = 't1'): Trace {
  return makeTrace(specs.map(call), { id });
}

/** n identical calls `gapSec` apart. */
export function repeat(n: number, gapSec: number, c: Omit<CallSpec, 't'>, start = 0): CallSpec[] {
  return Array.from({ length: n }, (_, i) => ({ ...c, t: start + i * gapSec }));
}

/** One crashlens log record (the shape of examples-logs/*.jsonl). */
export interface CrashlensRecord {
  traceId: string;
  startTime?: string;
  input: { model: string; prompt: string };
  usage: { prompt_tokens: number; completion_tokens: number };
  cost?: number;
  output?: string;
}

/** Records of one traceId → one trace, one LLM step per record (the mapping of the records format). */
export function fromRecords(records: CrashlensRecord[]): Trace[] {
  const byId = new Map<string, CrashlensRecord[]>();
  for (const r of records) byId.set(r.traceId, [...(byId.get(r.traceId) ?? []), r]);
  return [...byId].map(([id, recs]) =>
    TraceSchema.parse({
      id,
      steps: recs.map((r) => ({
        type: 'llm',
        model: r.input.model,
        input: r.input.prompt,
        usage: { inputTokens: r.usage.prompt_tokens, outputTokens: r.usage.completion_tokens },
        ...(r.cost !== undefined ? { costUsd: r.cost, costSource: 'recorded' } : {}),
        ...(r.startTime ? { startedAt: r.startTime } : {}),
        ...(r.output !== undefined ? { output: r.output } : {}),
      })),
    }),
  );
}

/**
 * The calls of 50 concurrent agent runs, interleaved by time as production logs are, written in
 * each grouping format (records, span-per-line OTLP, loose Langfuse observations).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Call {
  run: number;
  /** Index of the call in its run. */
  index: number;
  last: boolean;
  t: number;
  prompt: string;
}

/** The calls of 50 runs, some of which retry one prompt (so that detectors have something to find). */
export function calls(runs = 50): { byRun: Call[][]; byTime: Call[] } {
  const r = rng(7);
  const words = 'agent order refund search lookup customer damaged item reply summary'.split(' ');
  const byRun: Call[][] = [];
  for (let run = 0; run < runs; run++) {
    const n = 3 + Math.floor(r() * 8);
    const retries = run % 5 === 0;
    const list: Call[] = [];
    for (let index = 0; index < n; index++) {
      const prompt = retries
        ? `retry the ${words[run % words.length]} lookup`
        : Array.from({ length: 12 }, () => words[Math.floor(r() * words.length)]).join(' ');
      list.push({ run, index, last: index === n - 1, t: 0, prompt });
    }
    byRun.push(list);
  }
  // Interleave by time: each call goes to a random run with calls left, the clock ticks.
  const next = byRun.map(() => 0);
  const byTime: Call[] = [];
  let clock = Date.UTC(2026, 0, 1);
  for (let left = byRun.flat().length; left > 0; left--) {
    const open = byRun.map((_, i) => i).filter((i) => next[i]! < byRun[i]!.length);
    const run = open[Math.floor(r() * open.length)]!;
    const call = byRun[run]![next[run]!++]!;
    call.t = clock += 1000 + Math.floor(r() * 1000);
    byTime.push(call);
  }
  return { byRun, byTime };
}

const hexId = (n: number, width: number) => n.toString(16).padStart(width, '0');

export const lineFormats: Record<string, (c: Call) => object[]> = {
  records: (c) => [
    {
      traceId: `run-${c.run}`,
      startTime: new Date(c.t).toISOString(),
      endTime: new Date(c.t + 500).toISOString(),
      input: { model: 'gpt-4o', prompt: c.prompt },
      usage: { prompt_tokens: 100 + c.index, completion_tokens: 20 },
      output: `answer ${c.index}`,
    },
  ],
  otel: (c) => {
    const traceId = hexId(c.run + 1, 32);
    const attr = (key: string, v: string | number) => ({
      key,
      value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: v },
    });
    const spans: object[] = [
      {
        traceId,
        spanId: hexId((c.run + 1) * 1000 + c.index + 1, 16),
        parentSpanId: hexId(c.run + 1, 16),
        name: 'chat gpt-4o',
        startTimeUnixNano: `${BigInt(c.t) * 1_000_000n}`,
        endTimeUnixNano: `${BigInt(c.t + 500) * 1_000_000n}`,
        attributes: [
          attr('gen_ai.operation.name', 'chat'),
          attr('gen_ai.request.model', 'gpt-4o'),
          attr('gen_ai.usage.input_tokens', 100 + c.index),
          attr('gen_ai.usage.output_tokens', 20),
          attr('gen_ai.prompt', c.prompt),
        ],
      },
    ];
    // The root span ends last, so the exporter writes it after its children.
    if (c.last)
      spans.push({
        traceId,
        spanId: hexId(c.run + 1, 16),
        name: 'invoke_agent support',
        startTimeUnixNano: `${BigInt(Date.UTC(2026, 0, 1)) * 1_000_000n}`,
        endTimeUnixNano: `${BigInt(c.t + 1000) * 1_000_000n}`,
        attributes: [attr('gen_ai.operation.name', 'invoke_agent'), attr('gen_ai.agent.name', 'support')],
      });
    return spans;
  },
  langfuse: (c) => [
    {
      id: `obs-${c.run}-${c.index}`,
      traceId: `lf-${c.run}`,
      type: 'GENERATION',
      name: 'chat',
      model: 'gpt-4o',
      startTime: new Date(c.t).toISOString(),
      endTime: new Date(c.t + 500).toISOString(),
      input: [{ role: 'user', content: c.prompt }],
      output: { role: 'assistant', content: `answer ${c.index}` },
      usageDetails: { input: 100 + c.index, output: 20 },
    },
  ],
};

export function writeJsonl(name: string, values: object[]): string {
  const d = mkdtempSync(path.join(tmpdir(), 'tj-interleaved-'));
  const file = path.join(d, name);
  writeFileSync(file, values.map((v) => JSON.stringify(v)).join('\n') + '\n');
  return file;
}

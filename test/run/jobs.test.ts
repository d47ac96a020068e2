/**
 * `--jobs N` must not change the report: the same traces, signals, totals, errors and order
 * whatever the number of worker threads. Runs the built CLI (worker threads load build/run/worker.js),
 * with the size threshold for going parallel lowered so that small inputs use the workers too.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { calls, lineFormats, writeJsonl } from '../helpers/interleavedRuns.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'build/cli/bin.js');

/** With `splitLines`, files of any size are split by line between the workers (not dealt whole). */
function analyzeJson(args: string[], cwd: string, splitLines = false) {
  const run = spawnSync(process.execPath, [bin, 'analyze', ...args, '--format', 'json'], {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      CI: 'true',
      TRACEJURY_PARALLEL_MIN_BYTES: '0',
      ...(splitLines ? { TRACEJURY_LINE_SHARD_MIN_BYTES: '0' } : {}),
    },
    maxBuffer: 256 * 1024 * 1024,
  });
  const report = JSON.parse(run.stdout) as Record<string, unknown>;
  delete report.generatedAt;
  return { code: run.status, report, stderr: run.stderr };
}

/** Seeded PRNG, so the input is the same on every run. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the order refund customer shipping invoice account password reset weather paris flight booking seat upgrade'.split(
    ' ',
  );

/** Calls of 50 concurrent runs, interleaved by time, some of them retry loops and fallbacks. */
function recordsLog(random: () => number, runs = 50, callsPerRun = 8): string {
  const calls: { t: number; line: string }[] = [];
  for (let r = 0; r < runs; r++) {
    let t = Date.UTC(2026, 10, 1, 9) + Math.floor(random() * 60_000);
    const loop = random() < 0.3;
    for (let c = 0; c < callsPerRun; c++) {
      t += 500 + Math.floor(random() * 4000);
      const prompt = loop
        ? 'Summarise the refund policy for order 42.'
        : Array.from({ length: 20 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
      const model = random() < 0.2 ? 'gpt-4' : 'gpt-4o-mini';
      calls.push({
        t,
        line: JSON.stringify({
          traceId: `run-${r}`,
          startTime: new Date(t).toISOString(),
          endTime: new Date(t + 800).toISOString(),
          input: { model, prompt },
          usage: {
            prompt_tokens: 10 + Math.floor(random() * 500),
            completion_tokens: 5 + Math.floor(random() * 200),
          },
          output: random() < 0.05 ? '' : 'Here is the summary you asked for.',
        }),
      });
    }
  }
  calls.sort((a, b) => a.t - b.t);
  return calls.map((c) => c.line).join('\n') + '\n';
}

function nativeTraces(random: () => number, n = 200): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const tool = random() < 0.3 ? 'search' : 'lookup';
    const repeats = random() < 0.25 ? 4 : 1;
    const steps: unknown[] = [
      {
        type: 'llm',
        model: 'gpt-4o',
        input: 'Find the order',
        output: '',
        finishReason: 'tool_calls',
        usage: { inputTokens: 200, outputTokens: 20 },
      },
    ];
    for (let k = 0; k < repeats; k++)
      steps.push({
        type: 'tool',
        name: tool,
        args: { q: 'order 42' },
        status: random() < 0.2 ? 'error' : 'ok',
        result: 'found',
      });
    steps.push({
      type: 'llm',
      model: 'gpt-4o',
      input: 'Answer',
      output: 'Your order ships tomorrow.',
      finishReason: 'stop',
      usage: { inputTokens: 300, outputTokens: 30 },
    });
    lines.push(
      JSON.stringify({
        id: `native-${i}`,
        agentId: i % 2 ? 'support' : 'search',
        // Sessions spread over the file (and so over the workers), and traces of no session.
        ...(i % 5 ? { sessionId: `session-${i % 7}` } : {}),
        status: 'ok',
        input: `Where is order ${i % 4}?`,
        output: 'done',
        steps,
      }),
    );
  }
  // One broken line and one invalid trace: errors must be listed once, in the same order.
  lines.splice(17, 0, '{"id": "broken", "steps": [');
  lines.splice(40, 0, JSON.stringify({ id: 'bad-types', steps: [{ type: 'llm', model: 7 }] }));
  return lines.join('\n') + '\n';
}

describe('--jobs', () => {
  it('gives the same report with 1, 2 and 3 threads on interleaved records, native traces and many small files', () => {
    const random = rng(42);
    const dir = mkdtempSync(path.join(tmpdir(), 'tj-jobs-'));
    writeFileSync(path.join(dir, 'calls.jsonl'), recordsLog(random));
    writeFileSync(path.join(dir, 'native.jsonl'), nativeTraces(random));
    mkdirSync(path.join(dir, 'small'));
    for (let i = 0; i < 7; i++)
      writeFileSync(path.join(dir, 'small', `s${i}.jsonl`), recordsLog(random, 3, 4));

    const one = analyzeJson(['.', '--jobs', '1'], dir);
    expect(one.code).toBe(1);
    const report = one.report as { inputs: { traces: number; errorCount: number }; signals: unknown[] };
    expect(report.inputs.traces).toBeGreaterThan(250);
    expect(report.inputs.errorCount).toBe(2);
    expect(report.signals.length).toBeGreaterThan(20);
    // Session scores are part of the report, and must not depend on the threads either.
    const { sessions, sessionCoverage } = one.report as {
      sessions: { sessionId: string }[];
      sessionCoverage: { sessions: number; withoutSession: number };
    };
    expect(new Set(sessions.map((s) => s.sessionId)).size).toBeGreaterThanOrEqual(7);
    // Runs that name no session are in none, and counted: the same count from every thread.
    expect(sessionCoverage.sessions).toBe(new Set(sessions.map((s) => s.sessionId)).size);
    expect(sessionCoverage.withoutSession).toBeGreaterThan(0);
    // The native agents have 20 good runs and more: their baseline detectors wait for the input's
    // own baselines, which workers must hand over as one thread does.
    const baselines = (
      one.report as { baselines: { agent: string; detectors: Record<string, { source: string }> }[] }
    ).baselines;
    expect(baselines.find((b) => b.agent === 'support')?.detectors.COST_SPIKE?.source).toBe('input');
    for (const jobs of ['2', '3']) {
      for (const splitLines of [false, true]) {
        const many = analyzeJson(['.', '--jobs', jobs], dir, splitLines);
        expect(many.code).toBe(one.code);
        expect(many.report).toEqual(one.report);
      }
    }
  }, 60_000);

  it('gives the same report when gray-zone signals are resolved at tier 3 (embeddings)', () => {
    const random = rng(7);
    const dir = mkdtempSync(path.join(tmpdir(), 'tj-jobs-tier3-'));
    const queries = [
      ['weather in Paris today', 'weather in Paris today?', 'Weather in Paris today'],
      ['weather in Paris today', 'flights to Tokyo', 'banana bread recipe'],
      ['R1', 'R2', 'R3'],
    ];
    for (let f = 0; f < 3; f++) {
      const lines: string[] = [];
      for (let i = 0; i < 40; i++) {
        const qs = queries[Math.floor(random() * queries.length)]!;
        lines.push(
          JSON.stringify({
            id: `t3-${f}-${i}`,
            output: 'done',
            steps: qs.map((q) => ({ type: 'tool', name: 'search', args: { query: q }, status: 'ok' })),
          }),
        );
      }
      writeFileSync(path.join(dir, `gray-${f}.jsonl`), lines.join('\n') + '\n');
    }
    const one = analyzeJson(['.', '--jobs', '1'], dir);
    const report = one.report as { signals: { tier: number }[]; review: unknown[]; notes: string[] };
    expect(report.signals.some((s) => s.tier === 3)).toBe(true);
    expect(report.review.length).toBeGreaterThan(0);
    expect(report.notes).toContain(
      'tier 3 used the offline lexical embedder; configure embeddings: for a model',
    );
    for (const jobs of ['2', '3'])
      expect(analyzeJson(['.', '--jobs', jobs], dir, true).report).toEqual(one.report);
  }, 60_000);

  it.each(Object.keys(lineFormats))(
    'gives the same report when a %s file with 50 interleaved runs is split by line',
    (format) => {
      const { byTime } = calls();
      const file = writeJsonl('interleaved.jsonl', byTime.flatMap(lineFormats[format]!));
      const dir = path.dirname(file);
      const one = analyzeJson(['interleaved.jsonl', '--jobs', '1'], dir, true);
      const report = one.report as { inputs: { traces: number; errorCount: number }; signals: unknown[] };
      expect(report.inputs).toMatchObject({ traces: 50, errorCount: 0 });
      expect(report.signals.length).toBeGreaterThan(0);
      for (const jobs of ['2', '3'])
        expect(analyzeJson(['interleaved.jsonl', '--jobs', jobs], dir, true).report).toEqual(one.report);
    },
    60_000,
  );

  it('reads a file whole in one worker when a line carries two trace ids, with the same report', () => {
    // The first "traceId" of each line is a parent id in metadata: splitting by it would tear runs apart.
    const { byTime } = calls();
    const lines = byTime
      .flatMap(lineFormats.records!)
      .map((r) => ({ metadata: { traceId: 'parent-1' }, ...r }));
    const file = writeJsonl('nested.jsonl', lines);
    const dir = path.dirname(file);
    const one = analyzeJson(['nested.jsonl', '--jobs', '1'], dir, true);
    expect((one.report as { inputs: { traces: number } }).inputs.traces).toBe(50);
    expect(analyzeJson(['nested.jsonl', '--jobs', '2'], dir, true).report).toEqual(one.report);
  }, 60_000);

  it('rejects a --jobs that is not a positive whole number', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tj-jobs-'));
    const run = spawnSync(process.execPath, [bin, 'analyze', '.', '--jobs', '0'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--jobs 0: expected a whole number of threads from 1/);
  });
});

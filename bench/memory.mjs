// Peak memory of `tracejury analyze` on ~1 GB files of each JSONL format, whose records are
// interleaved by time across ~50 concurrent runs (the order that made grouping readers hold a
// whole file). The reliability rule: peak RSS under 300 MB on a 1 GB file of any format, whatever
// the order of its records. Not a test: prints what it measures. Usage:
//   npm run build && node bench/memory.mjs [sizeMB=1024] [formats=native,records,otel,langfuse]
//   node bench/memory.mjs --pass records     time the first pass (lastLines.ts) against the
//                                            JSON.parse floor on the records file
// Each file is measured twice: the whole `analyze` (loader, detectors, report), and the loader
// alone (streamTraceBatches, traces counted and dropped). The report keeps a summary of every
// trace and every signal, so it grows with the number of traces; the loader's share must not.
// Files are generated once into bench/out/ (gitignored) and reused.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const outDir = path.join(here, 'out');
const bin = path.join(root, 'build', 'cli', 'bin.js');

/** Deterministic PRNG (mulberry32) so every run measures the same bytes. */
function rng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const r = rng(42);
const pick = (list) => list[Math.floor(r() * list.length)];
const int = (lo, hi) => lo + Math.floor(r() * (hi - lo));
const hex = (n) => {
  let s = '';
  for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(r() * 16)];
  return s;
};

// A vocabulary of made-up words, so that text varies as real prompts do (no repeated strings that
// V8 or the OS could share).
const SYLLABLES = 'ka lo mi ne su ra to vi de pa qu el an or is un ex tr st ch sh ph gr bl'.split(' ');
const VOCABULARY = Array.from({ length: 4000 }, () => {
  let w = '';
  for (let i = int(1, 4); i > 0; i--) w += pick(SYLLABLES);
  return w;
});
function words(n) {
  const out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = VOCABULARY[Math.floor(r() * VOCABULARY.length)];
  return out.join(' ');
}

const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet-20240620', 'claude-3-haiku', 'gpt-4'];
const TOOLS = ['search_docs', 'lookup_order', 'send_email', 'fetch_url', 'run_sql'];
const CONCURRENT_RUNS = 50;

/**
 * The calls of many runs as they happen: ~50 runs at a time, each a few LLM and tool calls; the
 * next call comes from a random open run, so the calls of one run are spread over the file.
 * Yields { run, index, last, kind, t } events; `writeRun` formats them.
 */
function* interleavedCalls() {
  let nextRun = 0;
  let clock = Date.UTC(2026, 10, 1);
  const open = [];
  const start = () => ({ id: nextRun++, calls: int(6, 20), done: 0, t0: clock });
  for (let i = 0; i < CONCURRENT_RUNS; i++) open.push(start());
  for (;;) {
    const k = Math.floor(r() * open.length);
    const run = open[k];
    clock += int(50, 400);
    const last = run.done === run.calls - 1;
    yield { run, index: run.done, last, kind: run.done % 2 === 0 || last ? 'llm' : 'tool', t: clock };
    run.done++;
    if (last) open[k] = start();
  }
}

const iso = (ms) => new Date(ms).toISOString();
const nanos = (ms) => `${BigInt(ms) * 1_000_000n}`;
const runIds = new Map();
const otelIds = (run) => {
  let ids = runIds.get(run.id);
  if (!ids) runIds.set(run.id, (ids = { trace: hex(32), root: hex(16) }));
  return ids;
};

const formats = {
  records(e) {
    const model = pick(MODELS);
    return {
      traceId: `run-${String(e.run.id).padStart(7, '0')}`,
      startTime: iso(e.t),
      endTime: iso(e.t + int(300, 3000)),
      input: { model, prompt: words(int(150, 450)) },
      usage: { prompt_tokens: int(200, 4000), completion_tokens: int(10, 400) },
      cost: r() * 0.01,
      output: words(int(40, 200)),
      metadata: { agentId: `agent-${e.run.id % 7}` },
    };
  },
  otel(e) {
    const ids = otelIds(e.run);
    const attr = (key, value) => ({
      key,
      value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value },
    });
    const span = {
      traceId: ids.trace,
      spanId: hex(16),
      parentSpanId: ids.root,
      startTimeUnixNano: nanos(e.t),
      endTimeUnixNano: nanos(e.t + int(300, 3000)),
      status: { code: 1 },
    };
    let lines;
    if (e.kind === 'llm') {
      const model = pick(MODELS);
      span.name = `chat ${model}`;
      span.attributes = [
        attr('gen_ai.operation.name', 'chat'),
        attr('gen_ai.request.model', model),
        attr('gen_ai.usage.input_tokens', int(200, 4000)),
        attr('gen_ai.usage.output_tokens', int(10, 400)),
        attr(
          'gen_ai.input.messages',
          JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: words(int(150, 450)) }] }]),
        ),
        attr(
          'gen_ai.output.messages',
          JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: words(int(40, 200)) }] }]),
        ),
      ];
    } else {
      const tool = pick(TOOLS);
      span.name = `execute_tool ${tool}`;
      span.attributes = [
        attr('gen_ai.operation.name', 'execute_tool'),
        attr('gen_ai.tool.name', tool),
        attr('gen_ai.tool.call.arguments', JSON.stringify({ q: words(8) })),
        attr('gen_ai.tool.call.result', words(int(100, 300))),
      ];
    }
    lines = [span];
    if (e.last) {
      // The exporter writes a span when it ends: the agent's root span comes after its children.
      lines.push({
        traceId: ids.trace,
        spanId: ids.root,
        name: 'invoke_agent support',
        startTimeUnixNano: nanos(e.run.t0),
        endTimeUnixNano: nanos(e.t + 3000),
        attributes: [
          attr('gen_ai.operation.name', 'invoke_agent'),
          attr('gen_ai.agent.name', `agent-${e.run.id % 7}`),
        ],
        status: { code: 1 },
      });
      runIds.delete(e.run.id);
    }
    return lines;
  },
  langfuse(e) {
    const traceId = `lf-${String(e.run.id).padStart(7, '0')}`;
    const base = {
      id: hex(24),
      traceId,
      startTime: iso(e.t),
      endTime: iso(e.t + int(300, 3000)),
      parentObservationId: null,
    };
    if (e.kind === 'llm') {
      return {
        ...base,
        type: 'GENERATION',
        name: 'chat',
        model: pick(MODELS),
        input: [{ role: 'user', content: words(int(150, 450)) }],
        output: { role: 'assistant', content: words(int(40, 200)) },
        usageDetails: { input: int(200, 4000), output: int(10, 400) },
        costDetails: { total: r() * 0.01 },
      };
    }
    return {
      ...base,
      type: 'TOOL',
      name: pick(TOOLS),
      input: { q: words(8) },
      output: words(int(100, 300)),
    };
  },
};

/** Native traces are written whole, one a line: nothing to interleave. */
function* nativeLines() {
  for (let i = 0; ; i++) {
    let t = Date.UTC(2026, 10, 1) + i * 60_000;
    const steps = [];
    for (let s = int(6, 20); s > 0; s--) {
      t += int(300, 3000);
      if (s % 2 === 0) {
        steps.push({
          type: 'llm',
          model: pick(MODELS),
          input: [{ role: 'user', content: words(int(150, 450)) }],
          output: words(int(40, 200)),
          usage: { inputTokens: int(200, 4000), outputTokens: int(10, 400) },
          startedAt: iso(t),
          durationMs: int(300, 3000),
        });
      } else {
        steps.push({
          type: 'tool',
          name: pick(TOOLS),
          args: { q: words(8) },
          result: words(int(100, 300)),
          status: 'ok',
          startedAt: iso(t),
        });
      }
    }
    yield { id: `native-${i}`, agentId: `agent-${i % 7}`, status: 'ok', startedAt: iso(t), steps };
  }
}

function* linesOf(format) {
  if (format === 'native') {
    for (const t of nativeLines()) yield JSON.stringify(t);
    return;
  }
  for (const e of interleavedCalls()) {
    const out = formats[format](e);
    if (Array.isArray(out)) for (const o of out) yield JSON.stringify(o);
    else yield JSON.stringify(out);
  }
}

async function generate(format, bytes) {
  const file = path.join(outDir, `${format}-${Math.round(bytes / 2 ** 20)}mb.jsonl`);
  if (existsSync(file)) return file;
  mkdirSync(outDir, { recursive: true });
  const tmp = `${file}.partial`;
  const out = createWriteStream(tmp);
  let written = 0;
  let pending = [];
  let pendingBytes = 0;
  for (const line of linesOf(format)) {
    pending.push(line);
    pendingBytes += line.length + 1;
    if (pendingBytes > 1 << 20) {
      const chunk = pending.join('\n') + '\n';
      written += Buffer.byteLength(chunk);
      if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
      pending = [];
      pendingBytes = 0;
      if (written >= bytes) break;
    }
  }
  await new Promise((resolve, reject) => out.end((err) => (err ? reject(err) : resolve())));
  const { renameSync } = await import('node:fs');
  renameSync(tmp, file);
  return file;
}

/** Peak RSS (MB) and wall time (s) of a command, from GNU time. */
function measure(args) {
  const started = Date.now();
  const res = spawnSync('/usr/bin/time', ['-v', ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = (Date.now() - started) / 1000;
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(res.stderr)?.[1];
  if (!kb) throw new Error(`no peak RSS from /usr/bin/time: ${res.stderr.slice(-2000)}`);
  return { peakMb: Number(kb) / 1024, seconds, status: res.status, stderr: res.stderr };
}

const args = process.argv.slice(2);
if (args[0] === '--pass') {
  const format = args[1] ?? 'records';
  const sizeMb = Number(args[2] ?? 1024);
  const file = await generate(format, sizeMb * 2 ** 20);
  const floor = path.join(root, '..', '..', 'shared', 'bench', 'floor.mjs');
  const floorPath = existsSync(floor) ? floor : '/work/shared/bench/floor.mjs';
  const passScript = `import { lastLinesOfTraceIds } from ${JSON.stringify(path.join(root, 'build', 'trace', 'lastLines.js'))};
const m = await lastLinesOfTraceIds(${JSON.stringify(file)}); console.log(m.size);`;
  for (let round = 0; round < 3; round++) {
    const pass = measure(['node', '--input-type=module', '-e', passScript]);
    const parse = measure(['node', floorPath, file]);
    console.log(
      `round ${round + 1}: first pass ${pass.seconds.toFixed(2)} s (${pass.peakMb.toFixed(0)} MB), JSON.parse floor ${parse.seconds.toFixed(2)} s; pass/floor ${(pass.seconds / parse.seconds).toFixed(3)}`,
    );
  }
} else {
  const sizeMb = Number(args[0] ?? 1024);
  const list = (args[1] ?? 'native,records,otel,langfuse').split(',');
  if (!existsSync(bin)) throw new Error('build first: npm run build');
  for (const format of list) {
    const file = await generate(format, sizeMb * 2 ** 20);
    const size = statSync(file).size / 2 ** 20;
    const res = measure([
      'node',
      bin,
      'analyze',
      file,
      '--format',
      'json',
      '--out',
      '/dev/null',
      '--no-progress',
      '--state-dir',
      path.join(outDir, 'state'),
    ]);
    const loaderScript = `import { streamTraceBatches } from ${JSON.stringify(path.join(root, 'build', 'trace', 'load.js'))};
const { batches, stats } = streamTraceBatches([${JSON.stringify(file)}]);
let n = 0; for await (const b of batches) n += b.length;
console.log(n, stats.errorCount);`;
    const loader = measure(['node', '--input-type=module', '-e', loaderScript]);
    const verdict = (mb) => (mb <= 300 ? 'ok' : 'OVER 300 MB');
    console.log(
      `${format.padEnd(9)} ${size.toFixed(0).padStart(5)} MB  analyze: peak RSS ${res.peakMb.toFixed(0).padStart(4)} MB ${res.seconds.toFixed(1).padStart(6)} s exit ${res.status} ${verdict(res.peakMb)}` +
        `  |  loader alone: peak RSS ${loader.peakMb.toFixed(0).padStart(4)} MB ${loader.seconds.toFixed(1).padStart(6)} s ${verdict(loader.peakMb)}`,
    );
    if (res.status !== 0 && res.status !== 1) console.log(res.stderr.slice(-1500));
  }
}

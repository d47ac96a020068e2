// Benchmark: loader + report, and the full detector set, against the JSON.parse floor.
// Not a test: prints ratios measured inside one run on this machine. Usage:
//   npm run build && node bench/analyze.mjs [sizeMB=320] [rounds=3]
//   npm run build && node bench/analyze.mjs <trace file> [rounds=3]   (your own traces, any format)
// Each phase runs in its own process so its peak RSS is its own. The machine's speed drifts (a
// shared 2-core box), so the phases are interleaved round by round and each ratio is taken within
// a round, then reported as the median and range over rounds.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { createInterface } from 'node:readline';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, 'out');
const phase = process.env.TRACEJURY_BENCH_PHASE;
const INJECTION = 'PROMPT_INJECTION_SIGNAL';

/** Deterministic PRNG (mulberry32) so every run benches the same bytes. */
function rng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet-20240620', 'claude-3-haiku', 'gpt-4'];
const TOOLS = ['search_docs', 'lookup_order', 'send_email', 'fetch_url', 'run_sql'];
const WORDS =
  'the agent looked up the order and found that the customer wanted a refund for the damaged item'.split(' ');

function sentence(r, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += WORDS[Math.floor(r() * WORDS.length)] + ' ';
  return s.trim();
}

function makeTrace(i, r) {
  const t0 = Date.UTC(2026, 10, 1) + i * 60_000;
  const steps = [];
  const n = 6 + Math.floor(r() * 10);
  let t = t0;
  for (let s = 0; s < n; s++) {
    const kind = r();
    if (kind < 0.45) {
      const model = MODELS[Math.floor(r() * MODELS.length)];
      const toolCall = r() < 0.4;
      steps.push({
        type: 'llm',
        model,
        input: [{ role: 'user', content: sentence(r, 30 + Math.floor(r() * 60)) }],
        output: toolCall
          ? {
              role: 'assistant',
              toolCalls: [{ name: TOOLS[Math.floor(r() * TOOLS.length)], arguments: { q: sentence(r, 4) } }],
            }
          : sentence(r, 20 + Math.floor(r() * 40)),
        finishReason: r() < 0.03 ? 'length' : toolCall ? 'tool_calls' : 'stop',
        usage: { inputTokens: 200 + Math.floor(r() * 4000), outputTokens: 10 + Math.floor(r() * 400) },
        startedAt: new Date(t).toISOString(),
        durationMs: 300 + Math.floor(r() * 3000),
      });
    } else if (kind < 0.9) {
      const failed = r() < 0.1;
      steps.push({
        type: 'tool',
        name: TOOLS[Math.floor(r() * (r() < 0.3 ? 2 : TOOLS.length))],
        args: { q: sentence(r, 5) },
        result: failed ? undefined : sentence(r, 25 + Math.floor(r() * 50)),
        status: failed ? 'error' : 'ok',
        ...(failed ? { error: 'timeout' } : {}),
        startedAt: new Date(t).toISOString(),
        durationMs: 50 + Math.floor(r() * 2000),
      });
    } else {
      steps.push({
        type: 'retrieval',
        query: sentence(r, 6),
        results: Array.from({ length: Math.floor(r() * 4) }, (_, k) => ({
          id: `doc-${k}`,
          score: r(),
          content: sentence(r, 20),
        })),
        startedAt: new Date(t).toISOString(),
        durationMs: 80,
      });
    }
    t += 4000;
  }
  return {
    id: `bench-${i}`,
    agentId: `agent-${i % 7}`,
    agentVersion: '1.0.0',
    sessionId: `session-${Math.floor(i / 5)}`,
    status: r() < 0.9 ? 'ok' : 'error',
    startedAt: new Date(t0).toISOString(),
    endedAt: new Date(t).toISOString(),
    input: sentence(r, 20),
    output: r() < 0.9 ? sentence(r, 20) : undefined,
    availableTools: TOOLS,
    steps,
  };
}

async function generate(file, bytes) {
  mkdirSync(path.dirname(file), { recursive: true });
  const out = createWriteStream(file);
  const r = rng(42);
  let written = 0;
  for (let i = 0; written < bytes; i++) {
    const line = JSON.stringify(makeTrace(i, r)) + '\n';
    written += Buffer.byteLength(line);
    if (!out.write(line)) await new Promise((res) => out.once('drain', res));
  }
  await new Promise((res) => out.end(res));
}

async function runPhase(name, file) {
  // Loading tracejury's modules is a fixed cost per run, not per trace: timed apart, so that the
  // ratios measure throughput (the floor imports nothing).
  const importStart = performance.now();
  const { analyze, detectors } = name === 'floor' ? {} : await import('../build/index.js');
  const importMs = performance.now() - importStart;
  const jsonl = name === 'floor' && isJsonl(file);
  const start = performance.now();
  let traces = 0;
  if (jsonl) {
    const rl = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
    for await (const line of rl) {
      if (line.trim() === '') continue;
      JSON.parse(line);
      traces++;
    }
  } else if (name === 'floor') {
    // A JSON document (a pretty-printed export): the floor is reading and parsing it whole.
    JSON.parse(readFileSync(file, 'utf8'));
    traces = NaN;
  } else {
    const only = {
      'load+report': [],
      // Where the detector time goes: the injection scan reads every untrusted character, the
      // other detectors look at steps.
      'no-injection': detectors?.filter((d) => d.meta.id !== INJECTION),
    }[name];
    const report = await analyze([file], {
      baselines: false,
      ...(only ? { detectors: only } : {}),
      config: undefined,
    });
    traces = report.inputs.traces;
    // The synthetic input must load cleanly; a file of your own is measured as it is.
    if (report.inputs.errorCount > 0 && file.startsWith(outDir))
      throw new Error(`bench input had ${report.inputs.errorCount} errors`);
  }
  const ms = performance.now() - start;
  const rssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ name, ms, importMs, traces, rssMb }) + '\n');
}

/** JSONL when the first non-blank line is a whole JSON value (how the loader decides too). */
function isJsonl(file) {
  const buf = Buffer.alloc(1 << 20);
  const fd = openSync(file, 'r');
  const head = buf.toString('utf8', 0, readSync(fd, buf, 0, buf.length, 0));
  closeSync(fd);
  const first = head.split('\n').find((l) => l.trim() !== '') ?? '';
  try {
    JSON.parse(first);
    return true;
  } catch {
    return false;
  }
}

if (phase) {
  await runPhase(phase, process.argv[2]);
} else {
  const given = process.argv[2] !== undefined && Number.isNaN(Number(process.argv[2]));
  const sizeMb = given ? 0 : Number(process.argv[2] ?? 320);
  const file = given ? path.resolve(process.argv[2]) : path.join(outDir, `synthetic-${sizeMb}mb.jsonl`);
  if (!given && (!existsSync(file) || statSync(file).size < sizeMb * 1024 * 1024)) {
    process.stdout.write(
      `generating ${sizeMb} MB of synthetic traces → ${path.relative(process.cwd(), file)}\n`,
    );
    await generate(file, sizeMb * 1024 * 1024);
  }
  const rounds = Number(process.argv[3] ?? 3);
  const runs = { floor: [], 'load+report': [], analyze: [], 'no-injection': [] };
  for (let round = 0; round < rounds; round++) {
    for (const name of Object.keys(runs)) {
      const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), file], {
        env: { ...process.env, TRACEJURY_BENCH_PHASE: name },
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      });
      if (child.status !== 0) {
        process.stderr.write(child.stderr);
        process.exit(1);
      }
      runs[name].push(JSON.parse(child.stdout.trim().split('\n').pop()));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const results = Object.fromEntries(
    Object.entries(runs).map(([name, rs]) => [
      name,
      { ms: median(rs.map((r) => r.ms)), rssMb: Math.max(...rs.map((r) => r.rssMb)), traces: rs[0].traces },
    ]),
  );
  // Ratios are taken within each round (its three phases ran back to back, so a slow minute slows
  // them alike), then summarised by their median and range across rounds.
  const perRound = (f) => runs.floor.map((floor, i) => f(i) / floor.ms);
  const ratios = {
    'load+report': perRound((i) => runs['load+report'][i].ms),
    analyze: perRound((i) => runs.analyze[i].ms),
    detectors: perRound((i) => runs.analyze[i].ms - runs['load+report'][i].ms),
    'no-injection': perRound((i) => runs['no-injection'][i].ms),
    injection: perRound((i) => runs.analyze[i].ms - runs['no-injection'][i].ms),
    others: perRound((i) => runs['no-injection'][i].ms - runs['load+report'][i].ms),
  };
  const spread = (xs) =>
    `${median(xs).toFixed(2)}× (rounds ${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
  const mb = statSync(file).size / 1024 / 1024;
  process.stdout.write(
    `input: ${mb.toFixed(mb < 10 ? 1 : 0)} MB, ${results.analyze.traces} traces; ${rounds} interleaved rounds\n`,
  );
  for (const [name, r] of Object.entries(results)) {
    const ratio = name === 'floor' ? '1.00×' : spread(ratios[name]);
    process.stdout.write(
      `${name.padEnd(12)} median ${(r.ms / 1000).toFixed(2).padStart(6)} s  ${ratio.padEnd(30)} peak RSS ${r.rssMb.toFixed(0)} MB\n`,
    );
  }
  process.stdout.write(`detectors add ${spread(ratios.detectors)} of the floor on top of loading\n`);
  process.stdout.write(
    `  of which ${INJECTION} ${spread(ratios.injection)}, the other detectors ${spread(ratios.others)}\n`,
  );
  process.stdout.write(
    `(not in the times above: loading tracejury's modules, ${median(runs.analyze.map((r) => r.importMs)).toFixed(0)} ms per run)\n`,
  );
  // Each target against its median over rounds (RSS against the worst round).
  const verdict = (ok) => (ok ? 'met' : 'NOT met');
  const peakRss = Math.max(...Object.values(results).map((r) => r.rssMb));
  process.stdout.write(
    `targets: load+report ≤ 1.5× floor (${verdict(median(ratios['load+report']) <= 1.5)}), ` +
      `analyze ≤ 2× floor (${verdict(median(ratios.analyze) <= 2)}), ` +
      `detectors ≤ 0.5× floor (${verdict(median(ratios.detectors) <= 0.5)}), ` +
      `peak RSS < 300 MB (${verdict(peakRss < 300)})\n`,
  );
}

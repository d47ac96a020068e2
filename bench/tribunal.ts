/**
 * Tribunal benchmarks (not tests): `npx tsx bench/tribunal.ts`.
 *
 * 1. Concurrency: three fake judges answering after 300, 400 and 500 ms. The tribunal's wall time
 *    over the slowest judge's delay should be ≤ 1.15 (judges run in parallel, overhead is small).
 * 2. Cassette replay: 1,000 verdicts of three judges each, replayed from a cassette file with no
 *    server and no key. Target: < 1 s in total, including reading the cassette.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeAllCassettes, createTribunalSession, runTribunal, type JudgeSpec } from '../src/judge/index.js';
import { byModel, openaiReply, startFakeServer } from '../test/judge/fakeServers.js';

const KEYS = { OPENAI_API_KEY: 'bench-key' };
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1'];
const answer = { score: 0.9, confidence: 0.9, passed: true };

async function concurrency(): Promise<void> {
  const delays = [300, 400, 500];
  const srv = await startFakeServer(
    byModel(Object.fromEntries(MODELS.map((m, i) => [m, openaiReply(answer, m, { delayMs: delays[i]! })]))),
  );
  const judges: JudgeSpec[] = MODELS.map((model) => ({
    provider: 'openai',
    model,
    baseURL: srv.openaiBaseURL,
  }));
  const run = (i: number) =>
    runTribunal({ response: `bench response ${i}`, judges, cassette: false, memoryCache: false, env: KEYS });
  await run(-1); // warm-up: module init, price table, HTTP keep-alive
  const ratios: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const v = await run(i);
    const wall = performance.now() - t0;
    if (!v.passed) throw new Error(`unexpected verdict: ${v.reason}`);
    ratios.push(wall / Math.max(...delays));
  }
  await srv.close();
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(
    `tribunal wall / slowest judge (500 ms): median ${sorted[2]!.toFixed(3)}, ` +
      `min ${sorted[0]!.toFixed(3)}, max ${sorted[4]!.toFixed(3)} (target ≤ 1.15)`,
  );
}

async function replay(): Promise<void> {
  const n = 1000;
  const dir = await mkdtemp(join(tmpdir(), 'tracejury-bench-'));
  const path = join(dir, 'cassette.jsonl');
  const srv = await startFakeServer(() => openaiReply(answer));
  const judges: JudgeSpec[] = MODELS.map((model) => ({
    provider: 'openai',
    model,
    baseURL: srv.openaiBaseURL,
  }));
  const recorder = createTribunalSession({
    judges,
    cassette: { path, mode: 'record' },
    memoryCache: false,
    env: KEYS,
    concurrency: 32,
  });
  const responses = Array.from({ length: n }, (_, i) => `Response ${i}: the task was completed as asked.`);
  await Promise.all(responses.map((response, i) => recorder.evaluate({ response, traceId: `t${i}` })));
  await recorder.flush();
  await srv.close();

  closeAllCassettes(); // replay from the file, not from what the recorder kept in memory
  const t0 = performance.now();
  const session = createTribunalSession({
    judges,
    cassette: { path, mode: 'replay' },
    memoryCache: false,
    env: {},
  });
  const verdicts = await Promise.all(
    responses.map((response, i) => session.evaluate({ response, traceId: `t${i}` })),
  );
  const total = performance.now() - t0;
  const bad = verdicts.filter((v) => !v.passed || v.indeterminate).length;
  if (bad) throw new Error(`${bad} replayed verdicts did not pass`);
  console.log(
    `cassette replay: ${n} verdicts (${n * 3} judge answers) in ${total.toFixed(0)} ms ` +
      `(${((total / n) * 1000).toFixed(0)} µs/verdict; target < 1000 ms)`,
  );
  await rm(dir, { recursive: true, force: true });
}

await concurrency();
await replay();

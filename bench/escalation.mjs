// The economics of the tiers: how many traces the rules decide for free (tiers 1–2), how many
// gray-zone cases tier 3 (embeddings) settles, how many reach the judges (tier 4), and what that
// costs per trace against judging every trace.
//
// A deterministic mixed set of agent runs (bench/traces.mjs: text-heavy, failures at realistic
// rates) is analysed twice by the built library: once with escalation off, to count the gray-zone
// cases the rules leave, and once with three judges and an embeddings endpoint served on
// 127.0.0.1 (OpenAI wire formats, through the real `openai` client). The judges answer by a hash
// of what they are asked, so the split between confirmed and cleared cases is fixed run to run.
//
// Usage: npm run build && node bench/escalation.mjs [traces=3000]
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyze, createLexicalEmbedder, parseConfig } from '../build/index.js';
import { makeRun, nativeLines, prose, rng } from './traces.mjs';

const N = Number(process.argv[2] ?? 3000);
const dir = mkdtempSync(path.join(tmpdir(), 'tj-escalation-'));
const file = path.join(dir, 'runs.jsonl');
const r = rng(20261125);
const base = Date.parse('2026-11-01T09:00:00Z');
/**
 * The unclear cases rules cannot settle: on 8 % of runs the agent searches three times in a row
 * with different arguments — legitimate iteration or a loop in other words. Half reword one
 * request (a semantic loop the embeddings can see), half ask three different things.
 */
function withIteration(line, i) {
  const trace = JSON.parse(line);
  const topic = prose(r, 12);
  const queries =
    i % 2 === 0 ? [topic, `${topic} please`, `please, ${topic}`] : [prose(r, 12), prose(r, 12), prose(r, 12)];
  const at = Math.max(1, trace.steps.length - 1);
  const searches = queries.map((query) => ({
    type: 'tool',
    name: 'search_docs',
    args: { query },
    status: 'ok',
    result: prose(r, 40),
  }));
  trace.steps.splice(at, 0, ...searches);
  return JSON.stringify(trace);
}
const lines = [];
for (let i = 0; i < N; i++) {
  const [line] = nativeLines(makeRun(i, r, base + i * 20_000));
  lines.push(r() < 0.08 ? withIteration(line, i) : line);
}
writeFileSync(file, `${lines.join('\n')}\n`);

// The loopback provider: judges answer "healthy" or "failing" by a hash of the request; embeddings
// come from the lexical embedder, so similar texts really are close.
const lexical = createLexicalEmbedder();
let judgeRequests = 0;
let embedRequests = 0;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', async () => {
    const parsed = JSON.parse(body);
    res.setHeader('content-type', 'application/json');
    if (req.url?.endsWith('/embeddings')) {
      embedRequests++;
      const input = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
      const vectors = await lexical.embed(input);
      res.end(
        JSON.stringify({
          object: 'list',
          model: parsed.model,
          data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
          usage: { prompt_tokens: input.join(' ').length / 4, total_tokens: input.join(' ').length / 4 },
        }),
      );
      return;
    }
    judgeRequests++;
    const h = createHash('sha256').update(body).digest()[0];
    const failing = h % 3 === 0;
    const answer = failing
      ? { score: 0.2, confidence: 0.85, passed: false, reasoning: 'the run repeats itself without progress' }
      : {
          score: 0.85,
          confidence: 0.85,
          passed: true,
          reasoning: 'the repeated calls are legitimate iteration',
        };
    res.end(
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion',
        created: 1_764_000_000,
        model: parsed.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: JSON.stringify(answer) },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 1200, completion_tokens: 80, total_tokens: 1280 },
      }),
    );
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/v1`;

const judges = ['gpt-4o-mini', 'gpt-4.1-mini', 'gpt-4o']
  .map((model) => `    - { provider: openai, model: ${model}, baseURL: "${url}" }`)
  .join('\n');
const escalating = parseConfig(
  `tribunal:\n  judges:\n${judges}\n  cassette: { path: cassette.jsonl, mode: record }\nembeddings:\n  baseURL: "${url}"\n  model: text-embedding-3-small\nsessions:\n  failGate: false\n`,
);
const rulesOnly = parseConfig('tiers:\n  escalate: false\nsessions:\n  failGate: false\n');
// Relative paths in the config (the cassette) resolve in the temporary directory, never in the checkout.
const common = {
  baselines: false,
  cwd: dir,
  stateDir: path.join(dir, 'state'),
  env: { OPENAI_API_KEY: 'bench-key' },
};

const t0 = performance.now();
const rules = await analyze(file, { ...common, config: rulesOnly });
const t1 = performance.now();
const tiers = await analyze(file, { ...common, config: escalating });
const t2 = performance.now();
server.close();
rmSync(dir, { recursive: true, force: true });

const grayTraces = new Set(
  rules.signals.filter((s) => s.status === 'review' && !s.shadow).map((s) => s.traceId),
);
const graySignals = rules.signals.filter((s) => s.status === 'review' && !s.shadow).length;
const judgeCalls = Object.values(tiers.cost.byModel ?? {}).reduce((a, m) => a + m.calls, 0);
const verdicts = tiers.verdicts.length;
const perVerdictUsd = verdicts > 0 ? tiers.cost.judgeUsd / verdicts : 0;
const pct = (x) => `${(100 * x).toFixed(1)} %`;
const usd = (x) => `$${x.toFixed(5)}`;

console.log(
  `traces: ${N} (${rules.inputs.records} records), findings ${rules.signals.filter((s) => s.status === 'finding').length}`,
);
console.log(
  `resolved at tiers 1–2: ${pct(1 - grayTraces.size / N)} of traces (${grayTraces.size} traces with ${graySignals} gray-zone signals) — goal ≥ 90 %: ${1 - grayTraces.size / N >= 0.9 ? 'met' : 'not met'}`,
);
console.log(
  `tier 3 settled ${graySignals - verdicts} of ${graySignals} gray-zone signals (${embedRequests} embedding requests); ${verdicts} went to the tribunal`,
);
console.log(
  `judge calls: ${judgeCalls} (${judgeRequests} HTTP requests), ${((100 * judgeCalls) / N).toFixed(1)} per 100 traces`,
);
console.log(
  `escalation cost per trace: ${usd(tiers.cost.perTraceUsd ?? 0)} (tier 3 ${usd(tiers.cost.byTier['3'] ?? 0)}, tier 4 ${usd(tiers.cost.judgeUsd)} in all)`,
);
console.log(
  `judging every trace instead: ${usd(perVerdictUsd)} per trace (${N * 3} judge calls) — ${perVerdictUsd > 0 && tiers.cost.perTraceUsd ? `${(perVerdictUsd / tiers.cost.perTraceUsd).toFixed(0)}× more` : 'n/a'}`,
);
console.log(
  `time: rules only ${((t1 - t0) / 1000).toFixed(1)} s, with tiers 3–4 ${((t2 - t1) / 1000).toFixed(1)} s`,
);

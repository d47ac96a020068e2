/**
 * Tier 3 inside analyze(): gray-zone signals go through embeddings before any judge. One that the
 * embeddings decide is resolved at tier 3 and no judge is called; one they cannot decide goes on to
 * the tribunal (real OpenAI SDK against loopback servers).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { parseConfig } from '../../src/config/config.js';
import { findDetector } from '../../src/detect/registry.js';
import { createLexicalEmbedder } from '../../src/embed/lexicalEmbedder.js';
import { escalateWithEmbeddings } from '../../src/tiers/embeddings.js';
import { openaiReply, startFakeServer, type FakeServer } from '../judge/fakeServers.js';
import { makeTrace, tool } from '../helpers/traceBuilder.js';
import { startEmbeddingServer } from '../embed/embedServer.js';

// The same question reworded three times: TOOL_LOOP (args differ) is unsure, the embeddings are not.
const reworded = makeTrace(
  [
    tool('search', { args: { query: 'weather in Paris today' } }),
    tool('search', { args: { query: 'weather in Paris today?' } }),
    tool('search', { args: { query: 'Weather in Paris today' } }),
  ],
  { id: 'reworded', output: 'done' },
);
// Three lookups of three reservations: the embeddings cannot tell iteration from a loop.
const iterating = makeTrace(
  [
    tool('get_reservation_details', { args: { id: 'R1' } }),
    tool('get_reservation_details', { args: { id: 'R2' } }),
    tool('get_reservation_details', { args: { id: 'R3' } }),
  ],
  { id: 'iterating', output: 'done' },
);
// Three different questions: distinct requests, so no loop.
const distinct = makeTrace(
  [
    tool('search', { args: { query: 'weather in Paris today' } }),
    tool('search', { args: { query: 'flights to Tokyo' } }),
    tool('search', { args: { query: 'banana bread recipe' } }),
  ],
  { id: 'distinct', output: 'done' },
);

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function withJudges(extraYml = '') {
  const judge = await startFakeServer((req) =>
    openaiReply({ score: 0.1, confidence: 0.9, passed: false }, req.model),
  );
  servers.push(judge);
  return {
    judge,
    config: parseConfig(`
tribunal:
  judges:
    - { provider: openai, model: gpt-4o, baseURL: "${judge.openaiBaseURL}", apiKey: test-key }
    - { provider: openai, model: gpt-4o-mini, baseURL: "${judge.openaiBaseURL}", apiKey: test-key }
    - { provider: openai, model: gpt-4.1, baseURL: "${judge.openaiBaseURL}", apiKey: test-key }
  judgeTimeoutMs: 15000
  cassette: { mode: record }
${extraYml}`),
  };
}

const stateDir = () => mkdtempSync(path.join(tmpdir(), 'tj-tier3-'));

describe('tier 3 before the tribunal', () => {
  it('a reworded request is confirmed as a loop at tier 3 and no judge is called', async () => {
    const { judge, config } = await withJudges();
    const report = await analyze([reworded], { config, stateDir: stateDir(), baselines: false });
    expect(judge.requests).toHaveLength(0);
    const loop = report.signals.find((s) => s.detector === 'TOOL_LOOP')!;
    expect(loop.tier).toBe(3);
    expect(loop.confidence).toBeGreaterThan(0.65);
    expect(loop.evidence?.escalation).toMatch(
      /^tier 3 \(embeddings: offline-lexical\) confirmed the failure: semantic-loop: 3 consecutive steps restate one request/,
    );
    expect(report.verdicts).toEqual([]);
    expect(report.review).toEqual([]);
    expect(report.cost.byTier).toEqual({ '3': 0, '4': 0 });
    expect(report.notes).toContain(
      'tier 3 used the offline lexical embedder; configure embeddings: for a model',
    );
  });

  it('distinct requests clear the signal at tier 3', async () => {
    const report = await analyze([distinct], {
      config: parseConfig(''),
      stateDir: stateDir(),
      baselines: false,
    });
    expect(report.signals.filter((s) => s.detector === 'TOOL_LOOP')).toEqual([]);
    expect(report.review).toEqual([]);
  });

  it('an undecided case stays in the gray zone and goes on to tier 4', async () => {
    const { judge, config } = await withJudges();
    const report = await analyze([iterating], { config, stateDir: stateDir(), baselines: false });
    expect(judge.requests).toHaveLength(3);
    const loop = report.signals.find((s) => s.detector === 'TOOL_LOOP')!;
    expect(loop.tier).toBe(4);
    expect(loop.evidence?.tier3).toMatch(
      /^tier 3 \(embeddings: offline-lexical\) undecided: semantic-loop: /,
    );
    expect(loop.evidence?.escalation).toMatch(/tribunal confirmed the failure/);
    expect(report.verdicts).toHaveLength(1);
  });

  it('uses the configured endpoint, prices nothing it cannot price, and caches across runs', async () => {
    const embed = await startEmbeddingServer();
    servers.push(embed);
    const config = parseConfig(`
embeddings:
  baseURL: "${embed.openaiBaseURL}"
  model: my-embedder
  dimensions: 256
`);
    const dir = stateDir();
    const report = await analyze([reworded], { config, stateDir: dir, baselines: false, env: {} });
    expect(embed.requests).toHaveLength(1);
    expect(embed.requests[0]!.body).toMatchObject({ model: 'my-embedder', dimensions: 256 });
    const loop = report.signals.find((s) => s.detector === 'TOOL_LOOP')!;
    expect(loop).toMatchObject({ tier: 3 });
    expect(loop.evidence?.escalation).toMatch(
      /^tier 3 \(embeddings: openai-compatible:my-embedder\) confirmed/,
    );
    expect(report.cost.byTier).toEqual({ '3': 0 });
    expect(report.notes).toContainEqual(
      expect.stringMatching(/tier 3 spent 15 embedding tokens on my-embedder/),
    );

    const again = await analyze([reworded], { config, stateDir: dir, baselines: false, env: {} });
    expect(embed.requests).toHaveLength(1);
    expect(again.signals).toEqual(report.signals);
  });

  it('prices embedding tokens the prices: section knows', async () => {
    const embed = await startEmbeddingServer();
    servers.push(embed);
    const config = parseConfig(`
prices:
  my-embedder: { inputPer1M: 1000000, outputPer1M: 0 }
embeddings: { baseURL: "${embed.openaiBaseURL}", model: my-embedder }
`);
    const report = await analyze([reworded], { config, stateDir: stateDir(), baselines: false, env: {} });
    expect(report.cost.byTier['3']).toBeCloseTo(15, 6);
  });

  it('a failing endpoint leaves the signal for the next tier, with a note', async () => {
    const embed = await startEmbeddingServer(() => ({ status: 500, body: { error: { message: 'down' } } }));
    servers.push(embed);
    const config = parseConfig(`
embeddings: { baseURL: "${embed.openaiBaseURL}", model: m, maxRetries: 0 }
`);
    const report = await analyze([reworded], { config, stateDir: stateDir(), baselines: false, env: {} });
    expect(report.review).toEqual([expect.objectContaining({ detector: 'TOOL_LOOP' })]);
    expect(report.notes).toContainEqual(
      expect.stringMatching(/^tier 3 embeddings failed on 1 trace \(embeddings \(m\): HTTP 500/),
    );
  });

  it('escalate: false skips tier 3 too', async () => {
    const report = await analyze([reworded], {
      config: parseConfig('tiers: { escalate: false }'),
      stateDir: stateDir(),
      baselines: false,
    });
    expect(report.review).toEqual([expect.objectContaining({ detector: 'TOOL_LOOP' })]);
    expect(report.cost.byTier).toEqual({});
  });
});

describe('escalateWithEmbeddings', () => {
  const options = {
    embedder: createLexicalEmbedder(),
    noDowngrade: new Set<string>(),
    describe: (id: string) => findDetector(id)?.meta,
  };
  const signal = (detector: string, confidence: number, steps: number[] = [1, 2, 3]) => ({
    detector,
    traceId: 't',
    severity: 'high' as const,
    confidence,
    tier: 1,
    shadow: false,
    steps,
    message: 'm',
  });

  it('leaves failure modes without a semantic check, confirmed signals and shadows alone', async () => {
    const signals = [
      signal('RETRY_STORM', 0.5),
      signal('TOOL_LOOP', 0.9),
      { ...signal('TOOL_LOOP', 0.5), shadow: true },
    ];
    const r = await escalateWithEmbeddings(distinct, signals, options);
    expect(r.signals).toEqual(signals);
    expect(r.checked).toBe(0);
  });

  it('abandonment: an output far from the task raises the signal', async () => {
    const trace = makeTrace([tool('search', { args: { q: 'x' } })], {
      input: 'book a flight from Paris to Tokyo',
      output: 'banana bread: mix flour, sugar and eggs',
    });
    const r = await escalateWithEmbeddings(trace, [signal('GOAL_ABANDONMENT', 0.5, [1])], options);
    expect(r.signals[0]).toMatchObject({ tier: 3, confidence: 0.75 });
    expect(r.signals[0]!.evidence?.escalation).toMatch(/task-vs-output: output is far from the task/);
  });

  it('no-downgrade detectors are never lowered', async () => {
    const r = await escalateWithEmbeddings(distinct, [signal('TOOL_LOOP', 0.5)], {
      ...options,
      noDowngrade: new Set(['TOOL_LOOP']),
    });
    expect(r.signals[0]).toMatchObject({ confidence: 0.5, tier: 1 });
    expect(r.cleared).toEqual([]);
  });
});

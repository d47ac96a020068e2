import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CassetteEntrySchema,
  closeAllCassettes,
  compactCassette,
  createTribunalSession,
  LruCache,
  runTribunal,
  type JudgeSpec,
  type TribunalOptions,
} from '../../src/judge/index.js';
import { anthropicReply, byModel, openaiReply, startFakeServer, type FakeServer } from './fakeServers.js';

let dir: string;
let srv: FakeServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tracejury-cassette-'));
  closeAllCassettes();
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  closeAllCassettes();
  await rm(dir, { recursive: true, force: true });
});

const KEYS = { OPENAI_API_KEY: 'k1', ANTHROPIC_API_KEY: 'k2' };

function judges(s: FakeServer): JudgeSpec[] {
  return [
    { provider: 'openai', model: 'gpt-4o', baseURL: s.openaiBaseURL },
    { provider: 'openai', model: 'gpt-4o-mini', baseURL: s.openaiBaseURL },
    { provider: 'anthropic', model: 'claude-sonnet-4-6', baseURL: s.anthropicBaseURL },
  ];
}

function opts(
  s: FakeServer,
  mode: 'auto' | 'replay' | 'record',
  extra: Partial<TribunalOptions> = {},
): TribunalOptions {
  return {
    response: 'All 3 invoices were reconciled; totals match the ledger.',
    context: { task: 'Reconcile invoices' },
    judges: judges(s),
    cassette: { path: join(dir, 'cassette.jsonl'), mode },
    memoryCache: new LruCache(1000),
    traceId: 'cassette-trace',
    env: KEYS,
    ...extra,
  };
}

const stable = (v: Awaited<ReturnType<typeof runTribunal>>) => ({
  ...v,
  latencyMs: 0,
  costUsd: 0,
  judges: v.judges.map((j) => ({ ...j, latencyMs: 0, costUsd: 0, cached: undefined })),
});

describe('cassette', () => {
  it('records, then replays an identical verdict with the server stopped and no key', async () => {
    srv = await startFakeServer(
      byModel({
        'gpt-4o': openaiReply({ score: 0.9, confidence: 0.8, passed: true, reasoning: 'all reconciled' }),
        'gpt-4o-mini': openaiReply({
          score: 0.7,
          confidence: 0.9,
          passed: false,
          reasoning: 'one total unclear',
        }),
        'claude-sonnet-4-6': anthropicReply({ score: 0.85, confidence: 0.85, passed: true, reasoning: 'ok' }),
      }),
    );
    const recorded = await runTribunal(opts(srv, 'record'));
    expect(recorded.indeterminate).toBe(false);
    expect(srv.requests).toHaveLength(3);
    const s = srv;
    await srv.close();
    srv = undefined;

    const lines = (await readFile(join(dir, 'cassette.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const l of lines) {
      const e = CassetteEntrySchema.parse(JSON.parse(l));
      expect(Object.keys(JSON.parse(l))).toEqual([
        'key',
        'provider',
        'model',
        'answer',
        'usage',
        'httpStatus',
        'usedStructuredOutput',
        'recordedAt',
      ]);
      expect(e.key).toMatch(/^[0-9a-f]{64}$/);
      expect(l).not.toContain('k1');
    }

    closeAllCassettes(); // read from the file, not from memory
    const replayed = await runTribunal(opts(s, 'replay', { env: {}, memoryCache: false }));
    expect(replayed.judges.every((j) => j.cached)).toBe(true);
    expect(stable(replayed)).toEqual(stable(recorded));
    expect(replayed.score).toBe(recorded.score);
    expect(replayed.passed).toBe(recorded.passed);
    expect(replayed.judges.map((j) => j.reasoning)).toEqual(['all reconciled', 'one total unclear', 'ok']);

    // auto mode replays too, and a changed prompt is a miss.
    closeAllCassettes();
    const auto = await runTribunal(opts(s, 'auto', { env: {}, memoryCache: false }));
    expect(stable(auto)).toEqual(stable(recorded));
    const miss = await runTribunal(
      opts(s, 'replay', { env: {}, memoryCache: false, response: 'something else' }),
    );
    expect(miss.indeterminate).toBe(true);
    expect(miss.judges[0]!.error).toMatch(/no cassette entry for gpt-4o .*'record' or 'auto'/);
  });

  it('auto mode: a miss with no API key is INDETERMINATE with how to record', async () => {
    srv = await startFakeServer(() => openaiReply({ score: 1, confidence: 1, passed: true }));
    const v = await runTribunal(opts(srv, 'auto', { env: {} }));
    expect(v.indeterminate).toBe(true);
    expect(v.passed).toBe(false);
    expect(v.reason).toMatch(
      /no cassette entry for gpt-4o \(openai\) in .*cassette\.jsonl and no API key \(OPENAI_API_KEY\); run once with an API key and cassette mode 'record' or 'auto'/,
    );
    expect(v.judges.every((j) => j.httpStatus === 0)).toBe(true);
    expect(srv.requests).toHaveLength(0);
  });

  it('auto mode calls out on a miss when a key is present and records the answer', async () => {
    srv = await startFakeServer(
      byModel({
        'gpt-4o': openaiReply({ score: 0.9, confidence: 0.9, passed: true }),
        'gpt-4o-mini': openaiReply({ score: 0.9, confidence: 0.9, passed: true }),
        'claude-sonnet-4-6': anthropicReply({ score: 0.9, confidence: 0.9, passed: true }),
      }),
    );
    const first = await runTribunal(opts(srv, 'auto'));
    expect(first.passed).toBe(true);
    expect(srv.requests).toHaveLength(3);
    const second = await runTribunal(opts(srv, 'auto', { memoryCache: false }));
    expect(srv.requests).toHaveLength(3);
    expect(second.judges.every((j) => j.cached && j.costUsd === 0)).toBe(true);
  });

  it('writes whole lines when many verdicts record concurrently, and compacts stably', async () => {
    srv = await startFakeServer((req) =>
      req.api === 'openai'
        ? openaiReply({ score: 0.9, confidence: 0.9, passed: true })
        : anthropicReply({ score: 0.9, confidence: 0.9, passed: true }),
    );
    const session = createTribunalSession({ env: KEYS, memoryCache: false, concurrency: 16 });
    const n = 40;
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        session.evaluate(opts(srv!, 'record', { response: `answer number ${i}` })),
      ),
    );
    await session.flush();
    const path = join(dir, 'cassette.jsonl');
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(n * 3);
    const keys = lines.map((l) => CassetteEntrySchema.parse(JSON.parse(l)).key);
    expect(new Set(keys).size).toBe(n * 3);
    await compactCassette(path);
    const compacted = (await readFile(path, 'utf8')).trim().split('\n');
    expect(compacted.map((l) => JSON.parse(l).key)).toEqual([...keys].sort());
    expect(session.stats().judgeCalls).toBe(n * 3);
  });
});

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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
import { cassetteModeFromEnv } from '../../src/judge/cassette.js';
import { REPO } from '../helpers/vitestProject.js';
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
  replayed: undefined,
  judges: v.judges.map((j) => ({ ...j, latencyMs: 0, costUsd: 0, cached: undefined, replayed: undefined })),
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
      // Beside the hash, what the answer decides (the trace, the rubric), for a reviewer of the diff.
      expect(Object.keys(JSON.parse(l))).toEqual([
        'key',
        ...(e.traceId !== undefined ? ['traceId'] : []),
        'rubric',
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
    // Replayed, and says so; the recording was asked live.
    expect(replayed.replayed).toBe(true);
    expect(replayed.judges.every((j) => j.replayed)).toBe(true);
    expect(recorded.replayed).toBeUndefined();
    expect(recorded.judges.some((j) => j.replayed)).toBe(false);
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
    expect(miss.judges[0]!.error).toMatch(
      /no cassette entry for gpt-4o \(openai\) in .*cassette\.jsonl \(replay mode\); record it: run again with OPENAI_API_KEY set and TRACEJURY_CASSETTE=record/,
    );
  });

  it('auto mode: a miss with no API key is INDETERMINATE with how to record', async () => {
    srv = await startFakeServer(() => openaiReply({ score: 1, confidence: 1, passed: true }));
    const v = await runTribunal(opts(srv, 'auto', { env: {} }));
    expect(v.indeterminate).toBe(true);
    expect(v.passed).toBe(false);
    expect(v.reason).toMatch(
      /no cassette entry for gpt-4o \(openai\) in .*cassette\.jsonl and no API key \(OPENAI_API_KEY\); record it: run again with OPENAI_API_KEY set and TRACEJURY_CASSETTE=record/,
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

  it('names the exact command that records a miss, when the caller says what it runs', async () => {
    srv = await startFakeServer(() => openaiReply({ score: 1, confidence: 1, passed: true }));
    const v = await runTribunal(
      opts(srv, 'replay', { env: {}, rerunCommand: 'npx vitest run evals/support.test.ts' }),
    );
    expect(v.judges.map((j) => j.error)).toEqual([
      expect.stringMatching(
        /\(replay mode\); record it with OPENAI_API_KEY set: TRACEJURY_CASSETTE=record npx vitest run evals\/support\.test\.ts$/,
      ),
      expect.stringMatching(/record it with OPENAI_API_KEY set: TRACEJURY_CASSETTE=record npx vitest run/),
      expect.stringMatching(
        /record it with ANTHROPIC_API_KEY set: TRACEJURY_CASSETTE=record npx vitest run evals\/support\.test\.ts$/,
      ),
    ]);
  });

  it('recording again replaces entries instead of appending: the file keeps one sorted line per key', async () => {
    let reasoning = 'first opinion';
    srv = await startFakeServer((req) =>
      req.api === 'openai'
        ? openaiReply({ score: 0.9, confidence: 0.9, passed: true, reasoning })
        : anthropicReply({ score: 0.9, confidence: 0.9, passed: true, reasoning }),
    );
    const path = join(dir, 'cassette.jsonl');
    const record = async () => {
      closeAllCassettes(); // a new run: nothing of the last one in memory
      await runTribunal(opts(srv!, 'record', { memoryCache: false }));
      await runTribunal(opts(srv!, 'record', { memoryCache: false, response: 'A second answer.' }));
      return readFile(path, 'utf8');
    };
    const first = await record();
    const second = await record();
    // The same answers recorded again: the same bytes, recordedAt included.
    expect(second).toBe(first);
    expect(first.trim().split('\n')).toHaveLength(6);
    reasoning = 'a changed opinion';
    const third = await record();
    const lines = third
      .trim()
      .split('\n')
      .map((l) => CassetteEntrySchema.parse(JSON.parse(l)));
    expect(lines).toHaveLength(6);
    expect(lines.map((e) => e.key)).toEqual(lines.map((e) => e.key).sort());
    expect(lines.every((e) => e.answer.includes('a changed opinion'))).toBe(true);
    expect(srv.requests).toHaveLength(18);
  });

  it('compacts a file an older version appended duplicates to, keeping the last line of each key', async () => {
    const path = join(dir, 'cassette.jsonl');
    const entry = (key: string, answer: string) =>
      JSON.stringify({
        key,
        provider: 'openai',
        model: 'gpt-4o',
        answer,
        usage: { inputTokens: 1, outputTokens: 1 },
        httpStatus: 200,
        usedStructuredOutput: true,
        recordedAt: '2026-01-01T00:00:00.000Z',
      });
    await writeFile(path, [entry('b', 'old b'), entry('a', 'a'), entry('b', 'new b'), 'not json'].join('\n'));
    await compactCassette(path);
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    expect(lines).toEqual([entry('a', 'a'), entry('b', 'new b'), 'not json']);
  });

  it('keeps every entry when several processes record into one file at once', async () => {
    const path = join(dir, 'cassette.jsonl');
    const cassetteModule = pathToFileURL(join(REPO, 'build', 'judge', 'cassette.js')).href;
    const writer = (w: number) => `
      import { openCassette } from ${JSON.stringify(cassetteModule)};
      const c = openCassette(${JSON.stringify(path)});
      for (let i = 0; i < 15; i++) {
        await c.record({ key: 'w${w}-' + String(i).padStart(2, '0'), provider: 'openai', model: 'gpt-4o',
          answer: 'answer ${w} ' + i, usage: { inputTokens: 1, outputTokens: 1 }, httpStatus: 200,
          usedStructuredOutput: true, recordedAt: '2026-01-01T00:00:00.000Z' });
      }
      await c.flush();
      if (c.problems.length) { console.error(c.problems.join('\\n')); process.exit(1); }
    `;
    const codes = await Promise.all(
      [1, 2, 3, 4].map(
        (w) =>
          new Promise<number | null>((done) => {
            const child = spawn(process.execPath, ['--input-type=module', '-e', writer(w)], {
              stdio: ['ignore', 'inherit', 'inherit'],
            });
            child.on('close', done);
          }),
      ),
    );
    expect(codes).toEqual([0, 0, 0, 0]);
    const keys = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => CassetteEntrySchema.parse(JSON.parse(l)).key);
    expect(keys).toHaveLength(60);
    expect(keys).toEqual([...keys].sort());
    expect(existsSync(`${path}.lock`)).toBe(false);
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
    const text = await readFile(path, 'utf8');
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(n * 3);
    const keys = lines.map((l) => CassetteEntrySchema.parse(JSON.parse(l)).key);
    expect(new Set(keys).size).toBe(n * 3);
    expect(keys).toEqual([...keys].sort());
    await compactCassette(path);
    expect(await readFile(path, 'utf8')).toBe(text);
    expect(session.stats().judgeCalls).toBe(n * 3);
  });
});

describe('TRACEJURY_CASSETTE', () => {
  it('sets the mode, and a value that is no mode is an error with the nearest one', () => {
    expect(cassetteModeFromEnv({})).toBeUndefined();
    expect(cassetteModeFromEnv({ TRACEJURY_CASSETTE: '' })).toBeUndefined();
    expect(cassetteModeFromEnv({ TRACEJURY_CASSETTE: 'record' })).toBe('record');
    expect(() => cassetteModeFromEnv({ TRACEJURY_CASSETTE: 'recrod' })).toThrow(
      'TRACEJURY_CASSETTE="recrod": expected one of auto, replay, record — did you mean "record"?',
    );
  });
});

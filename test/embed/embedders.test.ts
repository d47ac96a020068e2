/**
 * Tier 3's embedders: the OpenAI-compatible provider through the real `openai` client against a
 * loopback server (batching, dimensions, retries, errors), the offline lexical embedder, and the
 * cache that spares a second run its HTTP calls.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddingCache, EMBEDDINGS_CACHE_FILE, withCache } from '../../src/embed/cache.js';
import { cosine } from '../../src/embed/embedder.js';
import { createLexicalEmbedder, lexicalVector } from '../../src/embed/lexicalEmbedder.js';
import { createOpenAIEmbedder } from '../../src/embed/openaiEmbedder.js';
import { errorReply, type FakeServer } from '../judge/fakeServers.js';
import { startEmbeddingServer } from './embedServer.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const env = { TEST_EMBED_KEY: 'test-key' };

describe('OpenAI-compatible embedder', () => {
  it('sends model, input and dimensions to POST /v1/embeddings in batches, vectors in input order', async () => {
    server = await startEmbeddingServer();
    const embedder = createOpenAIEmbedder({
      baseURL: server.openaiBaseURL,
      model: 'text-embedding-3-small',
      dimensions: 32,
      apiKeyEnv: 'TEST_EMBED_KEY',
      batchSize: 2,
      env,
    });
    const texts = ['alpha beta', 'gamma delta', 'epsilon', 'zeta eta', 'theta'];
    const vectors = await embedder.embed(texts);
    expect(server.requests.map((r) => r.path)).toEqual(Array(3).fill('/v1/embeddings'));
    expect(server.requests.map((r) => r.body.input)).toEqual([
      texts.slice(0, 2),
      texts.slice(2, 4),
      texts.slice(4),
    ]);
    for (const r of server.requests) {
      expect(r.body).toMatchObject({ model: 'text-embedding-3-small', dimensions: 32 });
      expect(r.headers.authorization).toBe('Bearer test-key');
    }
    expect(vectors).toHaveLength(5);
    expect(vectors[3]).toEqual(lexicalVector('zeta eta', 32));
    expect(embedder).toMatchObject({ name: 'openai-compatible:text-embedding-3-small', offline: false });
    expect(embedder.usage!()).toEqual({ tokens: 25, calls: 3 });
  });

  it('sends no dimensions when none is configured', async () => {
    server = await startEmbeddingServer();
    const embedder = createOpenAIEmbedder({
      baseURL: server.openaiBaseURL,
      model: 'nomic-embed-text',
      env: {},
    });
    await embedder.embed(['one']);
    expect(server.requests[0]!.body).not.toHaveProperty('dimensions');
  });

  it('retries a 500 and succeeds', async () => {
    server = await startEmbeddingServer((nth) => (nth === 1 ? errorReply(500) : undefined));
    const embedder = createOpenAIEmbedder({ baseURL: server.openaiBaseURL, model: 'm', maxRetries: 1, env });
    const [v] = await embedder.embed(['hello world']);
    expect(server.requests).toHaveLength(2);
    expect(v).toEqual(lexicalVector('hello world', 64));
  });

  it('reports a 500 that outlasts the retries with its status', async () => {
    server = await startEmbeddingServer(() => errorReply(500));
    const embedder = createOpenAIEmbedder({ baseURL: server.openaiBaseURL, model: 'm', maxRetries: 0, env });
    await expect(embedder.embed(['x'])).rejects.toMatchObject({
      name: 'EmbeddingError',
      status: 500,
      message: expect.stringMatching(/^embeddings \(m\): HTTP 500/),
    });
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after timeoutMs', async () => {
    server = await startEmbeddingServer(() => ({ delayMs: 2000, body: {} }));
    const embedder = createOpenAIEmbedder({
      baseURL: server.openaiBaseURL,
      model: 'm',
      maxRetries: 0,
      timeoutMs: 100,
      env,
    });
    await expect(embedder.embed(['x'])).rejects.toThrow(/embeddings \(m\)/);
  });

  it('says where the key is missing when api.openai.com would need one', async () => {
    const embedder = createOpenAIEmbedder({ model: 'text-embedding-3-small', env: {} });
    await expect(embedder.embed(['x'])).rejects.toThrow(/no API key in \$OPENAI_API_KEY/);
  });
});

describe('offline lexical embedder', () => {
  it('is deterministic, unit length, and scores similar texts above unrelated ones', async () => {
    const e = createLexicalEmbedder();
    const [a, b, c] = await e.embed([
      'book a flight from Paris to Tokyo',
      'please book me a flight from Paris to Tokyo',
      'a recipe for banana bread',
    ]);
    expect(await e.embed(['book a flight from Paris to Tokyo'])).toEqual([a]);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 10);
    expect(cosine(a!, b!)).toBeGreaterThan(0.7);
    expect(cosine(a!, c!)).toBeLessThan(0.3);
    expect(e).toMatchObject({ name: 'offline-lexical', offline: true });
  });

  it('gives an empty text a zero vector rather than NaN', () => {
    const v = lexicalVector('');
    expect(v.every((x) => x === 0)).toBe(true);
  });
});

describe('embedding cache', () => {
  it('a restart with the same stateDir makes no second HTTP call', async () => {
    server = await startEmbeddingServer();
    const stateDir = mkdtempSync(path.join(tmpdir(), 'tj-embed-'));
    const make = () =>
      withCache(
        createOpenAIEmbedder({ baseURL: server!.openaiBaseURL, model: 'm', env }),
        createEmbeddingCache({ stateDir }),
      );
    const first = await make().embed(['one', 'two', 'one']);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body.input).toEqual(['one', 'two']);
    expect(readFileSync(path.join(stateDir, EMBEDDINGS_CACHE_FILE), 'utf8').trim().split('\n')).toHaveLength(
      2,
    );

    const again = await make().embed(['two', 'one']);
    expect(server.requests).toHaveLength(1);
    expect(again).toEqual([first[1], first[0]]);

    await make().embed(['one', 'three']);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body.input).toEqual(['three']);
  });

  it('keeps at most max entries in memory (least recently used goes first)', () => {
    const cache = createEmbeddingCache({ max: 2 });
    cache.set('a', [1]);
    cache.set('b', [2]);
    cache.get('a');
    cache.set('c', [3]);
    expect(cache.size()).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual([1]);
  });

  it('skips a cut last line of the file', async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'tj-embed-'));
    const cache = createEmbeddingCache({ stateDir });
    cache.set('k', [0.5]);
    const { appendFileSync } = await import('node:fs');
    appendFileSync(path.join(stateDir, EMBEDDINGS_CACHE_FILE), '{"k":"x","v":[1');
    expect(createEmbeddingCache({ stateDir }).get('k')).toEqual([0.5]);
  });
});

/**
 * A loopback server speaking the OpenAI embeddings wire format (`POST /v1/embeddings`), built on
 * test/judge/fakeServers.ts. By default it answers with the lexical embedder's vectors, so that
 * similarity in tests means what it means offline.
 */
import { lexicalVector } from '../../src/embed/lexicalEmbedder.js';
import { startFakeServer, type FakeServer, type Reply } from '../judge/fakeServers.js';

export function embeddingsReply(input: string[], model: string, dimensions = 64): Reply {
  return {
    body: {
      object: 'list',
      data: input.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: lexicalVector(text, dimensions),
      })),
      model,
      usage: { prompt_tokens: input.length * 5, total_tokens: input.length * 5 },
    },
  };
}

/** `override` may answer a request itself (an error, a delay); otherwise vectors are returned. */
export function startEmbeddingServer(override?: (nth: number) => Reply | undefined): Promise<FakeServer> {
  return startFakeServer((req, nth) => {
    const custom = override?.(nth);
    if (custom) return custom;
    const body = req.body as { input: string | string[]; model: string; dimensions?: number };
    const input = typeof body.input === 'string' ? [body.input] : body.input;
    return embeddingsReply(input, body.model, body.dimensions ?? 64);
  });
}

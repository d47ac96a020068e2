/**
 * Any OpenAI-compatible embeddings endpoint (OpenAI, Ollama, vLLM, LM Studio, …) through the
 * official `openai` client: `POST {baseURL}/embeddings` with `{ model, input, dimensions? }`, in
 * batches, each request bounded by a timeout and retried by the client (a 5xx or 429 is retried
 * `maxRetries` times, then the error is reported with its status).
 */
// Types only: the SDK is loaded on the first call, so a run that never embeds does not pay for it.
import type OpenAI from 'openai';
import {
  DEFAULT_EMBEDDINGS_API_KEY_ENV,
  DEFAULT_EMBEDDINGS_BATCH_SIZE,
  DEFAULT_EMBEDDINGS_TIMEOUT_MS,
  type EmbeddingsConfig,
} from './config.js';
import type { Embedder } from './embedder.js';
import { isRunnerVariable, runnerVariableProblem } from '../util/runnerVariables.js';

export interface OpenAIEmbedderOptions extends EmbeddingsConfig {
  /** Where the API key is read (default process.env). */
  env?: Record<string, string | undefined>;
}

export class EmbeddingError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EmbeddingError';
  }
}

export function createOpenAIEmbedder(options: OpenAIEmbedderOptions): Embedder {
  const env = options.env ?? process.env;
  const keyEnv = options.apiKeyEnv ?? DEFAULT_EMBEDDINGS_API_KEY_ENV;
  const batchSize = options.batchSize ?? DEFAULT_EMBEDDINGS_BATCH_SIZE;
  let client: Promise<OpenAI> | undefined;
  let tokens = 0;
  let calls = 0;

  const clientFor = () =>
    (client ??= import('openai').then(({ default: OpenAIClient }) => {
      if (isRunnerVariable(keyEnv))
        throw new EmbeddingError(`embeddings: apiKeyEnv ${runnerVariableProblem(keyEnv)}`);
      // A local server (Ollama, vLLM) usually needs no key; api.openai.com does.
      const apiKey = env[keyEnv] ?? (options.baseURL ? 'unused' : undefined);
      if (!apiKey)
        throw new EmbeddingError(
          `embeddings: no API key in $${keyEnv} (set it, or set embeddings.apiKeyEnv / embeddings.baseURL)`,
        );
      return new OpenAIClient({
        apiKey,
        ...(options.baseURL ? { baseURL: options.baseURL } : {}),
        timeout: options.timeoutMs ?? DEFAULT_EMBEDDINGS_TIMEOUT_MS,
        maxRetries: options.maxRetries ?? 2,
      });
    }));

  async function embedBatch(openai: OpenAI, input: string[]): Promise<number[][]> {
    let res: Awaited<ReturnType<OpenAI['embeddings']['create']>>;
    try {
      res = await openai.embeddings.create({
        model: options.model,
        input,
        ...(options.dimensions ? { dimensions: options.dimensions } : {}),
        encoding_format: 'float',
      });
    } catch (e) {
      const status = (e as { status?: unknown }).status;
      throw new EmbeddingError(
        `embeddings (${options.model}): ${typeof status === 'number' ? `HTTP ${status}: ` : ''}${(e as Error).message}`,
        typeof status === 'number' ? status : undefined,
      );
    }
    calls++;
    tokens += res.usage?.prompt_tokens ?? res.usage?.total_tokens ?? 0;
    const out = new Array<number[] | undefined>(input.length);
    for (const d of res.data ?? []) if (d.index >= 0 && d.index < input.length) out[d.index] = d.embedding;
    if (out.some((v) => !Array.isArray(v)))
      throw new EmbeddingError(
        `embeddings (${options.model}): the answer has ${res.data?.length ?? 0} vectors for ${input.length} texts`,
      );
    return out as number[][];
  }

  return {
    name: `openai-compatible:${options.model}`,
    offline: false,
    model: options.model,
    async embed(texts) {
      if (texts.length === 0) return [];
      const openai = await clientFor();
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += batchSize)
        for (const v of await embedBatch(openai, texts.slice(i, i + batchSize))) out.push(v);
      return out;
    },
    usage: () => ({ tokens, calls }),
  };
}

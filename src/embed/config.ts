/** The `embeddings:` section of tracejury.yml: the OpenAI-compatible endpoint tier 3 embeds with. */
import { z } from 'zod';
import { apiKeyEnvSchema } from '../util/runnerVariables.js';

export const EmbeddingsConfigSchema = z
  .object({
    baseURL: z
      .string()
      .url()
      .optional()
      .describe('OpenAI-compatible API base (…/v1): OpenAI when absent, or Ollama, vLLM, …'),
    model: z.string().min(1).describe('Embedding model, e.g. text-embedding-3-small or nomic-embed-text'),
    dimensions: z.number().int().positive().optional().describe('Requested vector size (sent only when set)'),
    apiKeyEnv: apiKeyEnvSchema(
      'Environment variable holding the API key (default OPENAI_API_KEY); never GITHUB_*, ACTIONS_*, INPUT_* or RUNNER_*',
    ).optional(),
    timeoutMs: z.number().int().positive().optional().describe('Per request (default 10000)'),
    batchSize: z.number().int().positive().max(2048).optional().describe('Texts per request (default 64)'),
    maxRetries: z
      .number()
      .int()
      .min(0)
      .max(10)
      .optional()
      .describe('Retries of a failed request (default 2)'),
  })
  .strict();
export type EmbeddingsConfig = z.infer<typeof EmbeddingsConfigSchema>;

export const DEFAULT_EMBEDDINGS_API_KEY_ENV = 'OPENAI_API_KEY';
export const DEFAULT_EMBEDDINGS_TIMEOUT_MS = 10_000;
export const DEFAULT_EMBEDDINGS_BATCH_SIZE = 64;

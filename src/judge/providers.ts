/**
 * The judge providers: request building (pure, capability-gated) and sending through the official
 * `openai` and `@anthropic-ai/sdk` clients. `baseURL` points either at any compatible server (Azure,
 * OpenRouter, Ollama, vLLM, a test server). The SDKs' own retries are off (`maxRetries: 0`): the
 * tribunal retries itself so it can honour Retry-After inside the judge's time and record statuses.
 */
// Types only: the SDKs are loaded on the first judge call (see loadSdk), so a run without judges
// (most CLI runs) does not pay for loading hundreds of SDK modules at start-up.
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { z } from 'zod';
import { JUDGE_ANSWER_JSON_SCHEMA } from './answer.js';
import type { JudgeProvider, ModelCapabilities } from './capabilities.js';
import type { HeaderSource } from './retry.js';
import { apiKeyEnvSchema } from '../util/runnerVariables.js';
import { JudgeProviderSchema } from './verdict.js';

export const JudgeSpecSchema = z.object({
  provider: JudgeProviderSchema.describe(
    'The API the judge is called through (OpenAI-compatible or Anthropic)',
  ),
  model: z.string().min(1).describe('The judge model, e.g. gpt-4o or claude-sonnet-4-6'),
  /** Base URL of an OpenAI- or Anthropic-compatible endpoint. */
  baseURL: z
    .string()
    .optional()
    .describe('Base URL of an OpenAI- or Anthropic-compatible endpoint (Ollama, vLLM, a proxy)'),
  /** API key; defaults to OPENAI_API_KEY / ANTHROPIC_API_KEY. Prefer `apiKeyEnv` in config files. */
  apiKey: z.string().optional().describe('The API key itself; prefer apiKeyEnv, so no key is committed'),
  /** Name of the environment variable holding the key (never the runner's or an action's own: util/runnerVariables.ts). */
  apiKeyEnv: apiKeyEnvSchema(
    'Environment variable holding the key (default OPENAI_API_KEY or ANTHROPIC_API_KEY); never GITHUB_*, ACTIONS_*, INPUT_* or RUNNER_*',
  ).optional(),
});
export type JudgeSpec = z.infer<typeof JudgeSpecSchema>;

export const ANTHROPIC_TOOL_NAME = 'submit_verdict';
const SEED = 7;
const MAX_TOKENS = 1024;
/** Reasoning models spend completion tokens on thinking before they answer. */
const MAX_COMPLETION_TOKENS = 4096;

export interface ProviderRequest {
  provider: JudgeProvider;
  model: string;
  /** The full request body sent to the provider. */
  body: Record<string, unknown>;
  /** Every option in the body besides model and the prompt: part of the cache key. */
  options: Record<string, unknown>;
  usedStructuredOutput: boolean;
}

export interface ProviderAnswer {
  /** The answer text (for Anthropic tool use, the tool input as JSON). */
  text: string;
  usage: { inputTokens: number; outputTokens: number };
  httpStatus: number;
}

/** A non-2xx HTTP answer from a provider. */
export class JudgeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly headers: HeaderSource | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'JudgeHttpError';
  }
}

/** OpenAI's strict json_schema mode has historically rejected numeric bounds; zod checks them after. */
function strictSchema(): Record<string, unknown> {
  const properties = Object.fromEntries(
    Object.entries(JUDGE_ANSWER_JSON_SCHEMA.properties).map(([k, v]) => {
      const { minimum: _min, maximum: _max, ...rest } = v as Record<string, unknown>;
      return [k, rest];
    }),
  );
  return { ...JUDGE_ANSWER_JSON_SCHEMA, properties, required: [...JUDGE_ANSWER_JSON_SCHEMA.required] };
}

export function buildRequest(
  judge: Pick<JudgeSpec, 'provider' | 'model'>,
  prompt: { system: string; user: string },
  caps: ModelCapabilities,
): ProviderRequest {
  const options: Record<string, unknown> = {};
  let usedStructuredOutput = false;
  if (judge.provider === 'openai') {
    if (caps.temperature) options.temperature = 0;
    if (caps.seed) options.seed = SEED;
    if (caps.maxTokensParam === 'max_tokens') options.max_tokens = MAX_TOKENS;
    if (caps.maxTokensParam === 'max_completion_tokens')
      options.max_completion_tokens = MAX_COMPLETION_TOKENS;
    if (caps.jsonSchema) {
      options.response_format = {
        type: 'json_schema',
        json_schema: { name: 'judge_answer', strict: true, schema: strictSchema() },
      };
      usedStructuredOutput = true;
    } else if (caps.jsonObject) {
      options.response_format = { type: 'json_object' };
      usedStructuredOutput = true;
    }
    const body = {
      model: judge.model,
      messages: [
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ],
      ...options,
    };
    return { provider: 'openai', model: judge.model, body, options, usedStructuredOutput };
  }
  options.max_tokens = MAX_TOKENS;
  if (caps.temperature) options.temperature = 0;
  if (caps.toolUse) {
    options.tools = [
      {
        name: ANTHROPIC_TOOL_NAME,
        description: 'Submit your evaluation of the response.',
        input_schema: JUDGE_ANSWER_JSON_SCHEMA,
      },
    ];
    options.tool_choice = { type: 'tool', name: ANTHROPIC_TOOL_NAME };
    usedStructuredOutput = true;
  }
  const body = {
    model: judge.model,
    system: prompt.system,
    messages: [{ role: 'user', content: prompt.user }],
    ...options,
  };
  return { provider: 'anthropic', model: judge.model, body, options, usedStructuredOutput };
}

type Sdks = { OpenAI: typeof OpenAI; Anthropic: typeof Anthropic };
let sdks: Promise<Sdks> | undefined;

/**
 * Loads the SDKs (once): called before a judge's time starts, so that loading hundreds of modules
 * on a busy machine is not counted against the judge's `judgeTimeoutMs`.
 */
export function loadSdk(): Promise<Sdks> {
  sdks ??= Promise.all([import('openai'), import('@anthropic-ai/sdk')]).then(([o, a]) => ({
    OpenAI: o.default,
    Anthropic: a.default,
  }));
  return sdks;
}

type Client = { provider: 'openai'; client: OpenAI } | { provider: 'anthropic'; client: Anthropic };
const clients = new Map<string, Client>();

async function clientFor(
  provider: JudgeProvider,
  apiKey: string,
  baseURL: string | undefined,
): Promise<Client> {
  const id = `${provider}\u0000${baseURL ?? ''}\u0000${apiKey}`;
  let c = clients.get(id);
  if (!c) {
    const sdk = await loadSdk();
    // Timeouts come from our AbortSignal; the SDK's own is only a generous backstop.
    const common = { apiKey, maxRetries: 0, timeout: 10 * 60_000, ...(baseURL ? { baseURL } : {}) };
    c =
      provider === 'openai'
        ? { provider, client: new sdk.OpenAI(common) }
        : { provider, client: new sdk.Anthropic(common) };
    clients.set(id, c);
  }
  return c;
}

function rethrow(sdk: Sdks) {
  return (err: unknown): never => {
    if (
      (err instanceof sdk.OpenAI.APIError || err instanceof sdk.Anthropic.APIError) &&
      typeof err.status === 'number'
    ) {
      throw new JudgeHttpError(err.status, err.headers as HeaderSource | undefined, err.message);
    }
    throw err;
  };
}

/** Sends one request. Throws JudgeHttpError on an HTTP error, the SDK's error otherwise. */
export async function sendRequest(
  req: ProviderRequest,
  conn: { apiKey: string; baseURL?: string },
  signal: AbortSignal,
): Promise<ProviderAnswer> {
  const sdk = await loadSdk();
  const c = await clientFor(req.provider, conn.apiKey, conn.baseURL);
  if (c.provider === 'openai') {
    const { data, response } = await c.client.chat.completions
      .create(req.body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, { signal })
      .withResponse()
      .catch(rethrow(sdk));
    return {
      text: data.choices?.[0]?.message?.content ?? '',
      usage: {
        inputTokens: data.usage?.prompt_tokens ?? 0,
        outputTokens: data.usage?.completion_tokens ?? 0,
      },
      httpStatus: response.status,
    };
  }
  const { data, response } = await c.client.messages
    .create(req.body as unknown as Anthropic.MessageCreateParamsNonStreaming, { signal })
    .withResponse()
    .catch(rethrow(sdk));
  const blocks = (data.content ?? []) as { type: string; name?: string; input?: unknown; text?: string }[];
  const tool = blocks.find((b) => b.type === 'tool_use' && b.name === ANTHROPIC_TOOL_NAME);
  const text = tool
    ? JSON.stringify(tool.input)
    : blocks
        .filter((b) => b.type === 'text')
        .map((b) => b.text ?? '')
        .join('');
  return {
    text,
    usage: { inputTokens: data.usage?.input_tokens ?? 0, outputTokens: data.usage?.output_tokens ?? 0 },
    httpStatus: response.status,
  };
}

/**
 * What each judge model accepts, so that no request ever carries an option the model rejects
 * (reasoning models refuse `temperature`, older chat models have no `json_schema` response format).
 * Models are matched by name pattern, first match wins; an unknown model gets the conservative
 * default: nothing optional is sent and the answer is asked for as plain JSON text.
 */
import { z } from 'zod';

export type JudgeProvider = 'openai' | 'anthropic';

export const ModelCapabilitiesSchema = z.object({
  /** OpenAI `response_format: { type: 'json_schema' }` (structured outputs). */
  jsonSchema: z
    .boolean()
    .describe("The model takes OpenAI's response_format json_schema (structured outputs)"),
  /** OpenAI `response_format: { type: 'json_object' }`. */
  jsonObject: z.boolean().describe("The model takes OpenAI's response_format json_object"),
  /** Anthropic: a forced tool call (`tool_choice: { type: 'tool' }`) carries the answer. */
  toolUse: z.boolean().describe('Anthropic: the answer comes as a forced tool call'),
  temperature: z.boolean().describe('The model takes temperature (sent as 0)'),
  seed: z.boolean().describe('The model takes seed'),
  /** Which token-limit field the model takes; `none` sends no limit (Anthropic always sends `max_tokens`). */
  maxTokensParam: z
    .enum(['max_tokens', 'max_completion_tokens', 'none'])
    .describe('Which token-limit field the model takes; none sends no limit'),
});
export type ModelCapabilities = z.infer<typeof ModelCapabilitiesSchema>;
export const CapabilityOverridesSchema = z.record(z.string(), ModelCapabilitiesSchema.partial());
export type CapabilityOverrides = z.infer<typeof CapabilityOverridesSchema>;

const NONE: ModelCapabilities = {
  jsonSchema: false,
  jsonObject: false,
  toolUse: false,
  temperature: false,
  seed: false,
  maxTokensParam: 'none',
};

interface CapabilityRule {
  provider: JudgeProvider;
  pattern: RegExp;
  caps: ModelCapabilities;
}

const CHAT_FULL: ModelCapabilities = {
  ...NONE,
  jsonSchema: true,
  jsonObject: true,
  temperature: true,
  seed: true,
  maxTokensParam: 'max_tokens',
};
const REASONING: ModelCapabilities = {
  ...NONE,
  jsonSchema: true,
  jsonObject: true,
  maxTokensParam: 'max_completion_tokens',
};

/** Ordered: first match wins. Names may carry a vendor prefix (`openai/gpt-4o` on OpenRouter). */
const RULES: CapabilityRule[] = [
  // Reasoning models: no temperature, no seed, max_completion_tokens.
  {
    provider: 'openai',
    pattern: /(^|\/)o1-(mini|preview)/i,
    caps: { ...REASONING, jsonSchema: false, jsonObject: false },
  },
  { provider: 'openai', pattern: /(^|\/)(o1|o3|o4)(-|$)/i, caps: REASONING },
  { provider: 'openai', pattern: /(^|\/)gpt-5/i, caps: REASONING },
  // Chat models with structured outputs.
  { provider: 'openai', pattern: /(^|\/)(gpt-4o|gpt-4\.1|chatgpt-4o)/i, caps: CHAT_FULL },
  // Older chat models: JSON mode but no json_schema.
  {
    provider: 'openai',
    pattern: /(^|\/)(gpt-4-turbo|gpt-4-\d{4}|gpt-3\.5-turbo)/i,
    caps: { ...CHAT_FULL, jsonSchema: false },
  },
  {
    provider: 'openai',
    pattern: /(^|\/)gpt-4$/i,
    caps: { ...CHAT_FULL, jsonSchema: false, jsonObject: false },
  },
  // Open models behind OpenAI-compatible servers (Ollama, vLLM): JSON mode and sampling options.
  {
    provider: 'openai',
    pattern: /(^|\/)(llama|qwen|mistral|mixtral|gemma|phi|deepseek)/i,
    caps: { ...CHAT_FULL, jsonSchema: false },
  },
  {
    provider: 'anthropic',
    pattern: /^claude-/i,
    caps: { ...NONE, toolUse: true, temperature: true, maxTokensParam: 'max_tokens' },
  },
];

function globToRegExp(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`, 'i');
}

/**
 * Capabilities of `model` at `provider`. `overrides` maps glob patterns (`my-vllm-*`) to the fields
 * to change; they are applied over the table's answer.
 */
export function capabilitiesFor(
  provider: JudgeProvider,
  model: string,
  overrides: CapabilityOverrides = {},
): ModelCapabilities {
  const base = RULES.find((r) => r.provider === provider && r.pattern.test(model))?.caps ?? {
    ...NONE,
    // Anthropic's Messages API requires max_tokens for every model.
    maxTokensParam: provider === 'anthropic' ? 'max_tokens' : 'none',
  };
  let caps = { ...base };
  for (const [pattern, patch] of Object.entries(overrides)) {
    if (globToRegExp(pattern).test(model)) caps = { ...caps, ...patch };
  }
  return caps;
}

/**
 * The central allow-list of judge models (glob patterns, case-insensitive). Config's
 * `tribunal.allowedModels` replaces it; a judge outside it is refused before any call.
 */
export const DEFAULT_ALLOWED_MODELS: readonly string[] = [
  'gpt-4o*',
  'gpt-4.1*',
  'gpt-4-turbo*',
  'gpt-5*',
  'o1*',
  'o3*',
  'o4*',
  'claude-*',
];

export function isModelAllowed(model: string, allowed: readonly string[] = DEFAULT_ALLOWED_MODELS): boolean {
  return allowed.some((p) => globToRegExp(p).test(model));
}

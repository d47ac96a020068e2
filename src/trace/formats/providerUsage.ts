/**
 * Token counts of one LLM call from the usage object its provider returned, whichever provider's
 * shape it has, normalised to the trace's meaning: `inputTokens` is every prompt token (cached ones
 * included), `cachedInputTokens` and `cacheWriteInputTokens` the parts of it read from and written
 * to the prompt cache. Pricing depends on the split (a cache read costs a tenth of the input rate
 * on most models), so each shape is read as its provider documents it:
 *
 * - OpenAI Chat Completions: `prompt_tokens` (cached included), `completion_tokens` (reasoning
 *   included), `prompt_tokens_details.cached_tokens`, and `cache_write_tokens` there as gateways
 *   (OpenRouter) add it. LiteLLM's OpenAI shape for Anthropic models also carries
 *   `cache_read_input_tokens` / `cache_creation_input_tokens` beside `prompt_tokens`, which already
 *   counts them. A bare `cached_tokens` beside `prompt_tokens`, as some flat logs write it, is read too.
 * - OpenAI Responses: `input_tokens` (cached included), `output_tokens`,
 *   `input_tokens_details.cached_tokens`.
 * - Anthropic Messages: `input_tokens` counts only the tokens after the last cache breakpoint, so
 *   `cache_read_input_tokens` and `cache_creation_input_tokens` are added to it.
 * - Gemini `usageMetadata`: `promptTokenCount` (cached included) plus `toolUsePromptTokenCount`,
 *   `candidatesTokenCount` plus `thoughtsTokenCount` (thinking is billed as output),
 *   `cachedContentTokenCount`.
 *
 * Pure. A count that is not a non-negative number is passed to `bad` (the importer says where it
 * was) and read as absent.
 */
import { isRecord } from '../importer.js';

export interface CallUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  cacheWriteInputTokens?: number;
}

/** A usage field that holds something other than a count, by its path inside the usage object. */
export type BadCount = (field: string, value: unknown) => void;

/** True when `u` names a token count in one of the shapes read here. */
export function looksLikeUsage(u: Record<string, unknown>): boolean {
  return (
    'prompt_tokens' in u ||
    'completion_tokens' in u ||
    'input_tokens' in u ||
    'output_tokens' in u ||
    'promptTokenCount' in u ||
    'candidatesTokenCount' in u
  );
}

/**
 * The call's token counts, or undefined when `u` has none of the counts above (only a
 * `total_tokens`, say: the caller decides what that means).
 */
export function callUsage(u: Record<string, unknown>, bad: BadCount = () => {}): CallUsage | undefined {
  const count = (v: unknown, field: string): number | undefined => {
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
    bad(field, v);
    return undefined;
  };
  const inner = (key: string, field: string): number | undefined => {
    const details = u[key];
    return isRecord(details) ? count(details[field], `${key}.${field}`) : undefined;
  };
  const withCache = (c: CallUsage, read: number | undefined, write: number | undefined): CallUsage => ({
    ...c,
    ...(read !== undefined && read > 0 ? { cachedInputTokens: Math.min(read, c.inputTokens) } : {}),
    ...(write !== undefined && write > 0 ? { cacheWriteInputTokens: Math.min(write, c.inputTokens) } : {}),
  });

  if ('promptTokenCount' in u || 'candidatesTokenCount' in u) {
    const prompt = count(u.promptTokenCount, 'promptTokenCount') ?? 0;
    const toolUse = count(u.toolUsePromptTokenCount, 'toolUsePromptTokenCount') ?? 0;
    const candidates = count(u.candidatesTokenCount, 'candidatesTokenCount') ?? 0;
    const thoughts = count(u.thoughtsTokenCount, 'thoughtsTokenCount') ?? 0;
    return withCache(
      { inputTokens: prompt + toolUse, outputTokens: candidates + thoughts },
      count(u.cachedContentTokenCount, 'cachedContentTokenCount'),
      undefined,
    );
  }

  const cacheRead = count(u.cache_read_input_tokens, 'cache_read_input_tokens');
  const cacheCreation = count(u.cache_creation_input_tokens, 'cache_creation_input_tokens');
  const prompt = count(u.prompt_tokens, 'prompt_tokens');
  const completion = count(u.completion_tokens, 'completion_tokens');
  if (prompt !== undefined || completion !== undefined) {
    return withCache(
      { inputTokens: prompt ?? 0, outputTokens: completion ?? 0 },
      inner('prompt_tokens_details', 'cached_tokens') ?? cacheRead ?? count(u.cached_tokens, 'cached_tokens'),
      inner('prompt_tokens_details', 'cache_write_tokens') ?? cacheCreation,
    );
  }

  const input = count(u.input_tokens, 'input_tokens');
  const output = count(u.output_tokens, 'output_tokens');
  if (input === undefined && output === undefined) return undefined;
  const responsesCached = inner('input_tokens_details', 'cached_tokens');
  if (responsesCached !== undefined || (cacheRead === undefined && cacheCreation === undefined))
    return withCache({ inputTokens: input ?? 0, outputTokens: output ?? 0 }, responsesCached, undefined);
  // Anthropic: the cache's tokens are outside input_tokens.
  return withCache(
    { inputTokens: (input ?? 0) + (cacheRead ?? 0) + (cacheCreation ?? 0), outputTokens: output ?? 0 },
    cacheRead,
    cacheCreation,
  );
}

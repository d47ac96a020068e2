import { parseConfig } from '../../src/config/config.js';
import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  buildJudgePrompt,
  buildRequest,
  capabilitiesFor,
  consensus,
  isModelAllowed,
  judgeCacheKey,
  LruCache,
  median,
  parseJudgeAnswer,
  parseRetryAfter,
  resolveRubric,
  trimmedMean,
  TribunalConfigSchema,
  BUILT_IN_RUBRICS,
} from '../../src/judge/index.js';

const headers = (h: Record<string, string>) => new Headers(h);

describe('consensus', () => {
  it('uses the median for 1–4 judges and a 20 % trimmed mean from 5', () => {
    expect(median([0.9, 0.9, 0.1])).toBe(0.9);
    expect(median([0.2, 0.4, 0.6, 0.8])).toBeCloseTo(0.5);
    expect(trimmedMean([0, 0.5, 0.5, 0.5, 1])).toBeCloseTo(0.5);
    const c = consensus(
      [0.1, 0.8, 0.85, 0.9, 1].map((score) => ({ score, confidence: 0.9, passed: score >= 0.8 })),
      0.8,
    );
    expect(c.score).toBeCloseTo(0.85);
    expect(c.passes).toBe(4);
  });

  it('defines disagreement as the score range: 0 when judges agree', () => {
    const same = consensus(
      [1, 2, 3].map(() => ({ score: 0.7, confidence: 0.9, passed: true })),
      0.8,
    );
    expect(same.disagreement).toBe(0);
    expect(same.highDisagreement).toBe(false);
    const split = consensus(
      [
        { score: 0, confidence: 1, passed: false },
        { score: 1, confidence: 1, passed: true },
      ],
      0.8,
    );
    expect(split.disagreement).toBe(1);
    expect(split.majority).toBe(false);
  });
});

describe('Retry-After', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '150', 'retry-after': '9' }))).toBe(150);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
  });

  it('backs off exponentially unless the server says how long', () => {
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, undefined, { baseMs: 100 }))).toEqual([
      100, 200, 400, 800,
    ]);
    expect(backoffDelay(0, 2500)).toBe(2500);
  });
});

describe('capabilities and allow-list', () => {
  it('knows what models accept, conservatively for unknown ones', () => {
    expect(capabilitiesFor('openai', 'gpt-4o-mini')).toMatchObject({
      temperature: true,
      jsonSchema: true,
      seed: true,
    });
    expect(capabilitiesFor('openai', 'o1')).toMatchObject({ temperature: false, seed: false });
    expect(capabilitiesFor('openai', 'gpt-5')).toMatchObject({
      temperature: false,
      maxTokensParam: 'max_completion_tokens',
    });
    expect(capabilitiesFor('openai', 'openai/gpt-4o')).toMatchObject({ jsonSchema: true });
    expect(capabilitiesFor('openai', 'mystery')).toMatchObject({
      temperature: false,
      seed: false,
      jsonSchema: false,
      jsonObject: false,
      maxTokensParam: 'none',
    });
    expect(capabilitiesFor('anthropic', 'claude-opus-4-1')).toMatchObject({
      toolUse: true,
      temperature: true,
    });
    expect(capabilitiesFor('openai', 'my-vllm-qwen', { 'my-vllm-*': { jsonObject: true } }).jsonObject).toBe(
      true,
    );
  });

  it('does not put unsupported options in the request body', () => {
    const prompt = { system: 's', user: 'u' };
    const r = buildRequest({ provider: 'openai', model: 'o3' }, prompt, capabilitiesFor('openai', 'o3'));
    expect(r.body).not.toHaveProperty('temperature');
    expect(r.options).not.toHaveProperty('seed');
    const a = buildRequest({ provider: 'anthropic', model: 'x' }, prompt, capabilitiesFor('anthropic', 'x'));
    expect(a.body).not.toHaveProperty('tools');
    expect(a.body).not.toHaveProperty('temperature');
    expect(a.usedStructuredOutput).toBe(false);
  });

  it('checks models against the allow-list', () => {
    expect(isModelAllowed('gpt-4o-mini')).toBe(true);
    expect(isModelAllowed('claude-sonnet-4-6')).toBe(true);
    expect(isModelAllowed('llama3')).toBe(false);
    expect(isModelAllowed('llama3', ['llama*'])).toBe(true);
  });
});

describe('judge answers', () => {
  it('accepts plain JSON and a json fence', () => {
    expect(parseJudgeAnswer('{"score":1,"confidence":0.5,"passed":true,"reasoning":"r"}').ok).toBe(true);
    expect(
      parseJudgeAnswer('Verdict:\n```json\n{"score":0,"confidence":1,"passed":false,"reasoning":"r"}\n```')
        .ok,
    ).toBe(true);
  });

  it.each([
    ['prose', 'Looks good to me, 9/10'],
    ['out of range', '{"score":1.5,"confidence":0.5,"passed":true,"reasoning":"r"}'],
    ['missing field', '{"score":1,"confidence":0.5,"reasoning":"r"}'],
    ['wrong type', '{"score":"high","confidence":0.5,"passed":true,"reasoning":"r"}'],
    ['empty', ''],
  ])('rejects %s', (_name, text) => {
    expect(parseJudgeAnswer(text).ok).toBe(false);
  });
});

describe('prompt, rubrics, cache', () => {
  it('builds deterministic prompts with content-derived fences', () => {
    const a = buildJudgePrompt({ rubric: 'r', response: 'x', context: { a: 1 } });
    const b = buildJudgePrompt({ rubric: 'r', response: 'x', context: { a: 1 } });
    const c = buildJudgePrompt({ rubric: 'r', response: 'y' });
    expect(a).toEqual(b);
    expect(a.fenceTag).not.toBe(c.fenceTag);
    expect(a.user).toContain(
      `<<<BEGIN UNTRUSTED RESPONSE ${a.fenceTag}>>>\nx\n<<<END UNTRUSTED RESPONSE ${a.fenceTag}>>>`,
    );
  });

  it('resolves built-in, custom and literal rubrics', () => {
    expect(Object.keys(BUILT_IN_RUBRICS)).toEqual([
      'task_completion',
      'tool_correctness',
      'coherence',
      'groundedness',
      'instruction_adherence',
    ]);
    expect(resolveRubric('groundedness').text).toMatch(/^Groundedness/);
    expect(resolveRubric('polite', { polite: 'Be polite' })).toEqual({ name: 'polite', text: 'Be polite' });
    expect(resolveRubric('Is it short?')).toEqual({ name: 'custom', text: 'Is it short?' });
    expect(resolveRubric(undefined).name).toBe('task_completion');
  });

  it('takes a rubric without spaces for a name: an unknown one is an error with the nearest names', () => {
    const custom = { refund_answer: 'The answer states the refund amount and when it arrives.' };
    expect(() => resolveRubric('refund_answr', custom)).toThrow(
      'unknown rubric "refund_answr" — did you mean "refund_answer"? (built in: task_completion, tool_correctness, coherence, groundedness, instruction_adherence; tribunal.rubrics: refund_answer).',
    );
    expect(() => resolveRubric('groundednes')).toThrow(/did you mean "groundedness"\?/);
    expect(() => resolveRubric('helpfulness')).toThrow(/^unknown rubric "helpfulness" \(built in: /);
    expect(resolveRubric('  Is the answer short?  ').name).toBe('custom');
  });

  it('refuses a misspelt rubric name in tracejury.yml, with its line', () => {
    const yml = [
      'tribunal:',
      '  judges: [{ provider: openai, model: gpt-4o }]',
      '  rubric: refund_answr',
      '  rubrics:',
      '    refund_answer: The answer states the refund amount.',
    ].join('\n');
    expect(() => parseConfig(yml)).toThrow(
      /^tracejury\.yml:3: tribunal\.rubric: unknown rubric "refund_answr" — did you mean "refund_answer"\?/,
    );
  });

  it('keys the cache on provider, model, prompt and options, order-independently', () => {
    const base = { provider: 'openai', model: 'gpt-4o', prompt: { system: 's', user: 'u' } };
    const k = judgeCacheKey({ ...base, options: { temperature: 0, seed: 7 } });
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(judgeCacheKey({ ...base, options: { seed: 7, temperature: 0 } })).toBe(k);
    expect(judgeCacheKey({ ...base, options: { seed: 7 } })).not.toBe(k);
    expect(judgeCacheKey({ ...base, model: 'gpt-4.1', options: { temperature: 0, seed: 7 } })).not.toBe(k);
  });

  it('evicts the least recently used entry', () => {
    const lru = new LruCache<number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.size).toBe(2);
  });
});

describe('TribunalConfigSchema', () => {
  it('fills defaults and validates judges', () => {
    const c = TribunalConfigSchema.parse({ judges: [{ provider: 'openai', model: 'gpt-4o' }] });
    expect(c).toMatchObject({
      threshold: 0.8,
      judgeTimeoutMs: 8000,
      budgetMs: 25000,
      cassette: { path: '.tracejury/cassette.jsonl', mode: 'auto' },
      rubrics: {},
    });
    expect(TribunalConfigSchema.safeParse({ judges: [{ provider: 'gemini', model: 'x' }] }).success).toBe(
      false,
    );
    expect(TribunalConfigSchema.safeParse({ cassette: { mode: 'sometimes' } }).success).toBe(false);
    expect(TribunalConfigSchema.safeParse({ threshold: 2 }).success).toBe(false);
    expect(TribunalConfigSchema.safeParse({ judgez: [] }).success).toBe(false);
  });
});

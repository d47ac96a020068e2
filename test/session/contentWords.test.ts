import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { stableJson } from '../../src/detect/detectors/structural/shared.js';
import { BottomK, PartWords, readDistinctParts, WordList, WordSet } from '../../src/session/contentWords.js';
import {
  contentTokens,
  lexicalSimilarity,
  MAX_TEXT_CHARS,
  sketch,
  textOf,
  textParts,
} from '../../src/session/similarity.js';
import { sessionFactsOf, type SessionFacts } from '../../src/session/traceFacts.js';
import { loadTraces } from '../../src/trace/load.js';
import type { Trace } from '../../src/trace/schema.js';
import { BENCH_FORMATS, benchInputs, type BenchInputs } from '../helpers/benchInputs.js';

const wordsOf = (text: string): string[] => {
  const list = new WordList().read(text);
  return Array.from({ length: list.count }, (_, i) => list.word(i));
};

/** sessionFactsOf as it was before the word lists (regex tokens, Sets, a sort of every hash). */
function factsBefore(trace: Trace): SessionFacts {
  let toolSteps = 0;
  let failedToolSteps = 0;
  const tokens: string[] = [];
  const seen = new Map<string, number>();
  for (const step of trace.steps) {
    if (step.type !== 'tool') continue;
    toolSteps++;
    if (step.status === 'error') failedToolSteps++;
    const call = `t:${step.name}(${stableJson(step.args).slice(0, 4_000)})`;
    const n = (seen.get(call) ?? 0) + 1;
    seen.set(call, n);
    tokens.push(`${call}#${n}`);
  }
  const firstUserText = (): unknown => {
    for (const step of trace.steps) {
      if (step.type !== 'llm' || step.input === undefined) continue;
      if (typeof step.input === 'string') return step.input;
      return step.input.filter((m) => m.role === 'user').map((m) => m.content);
    }
    return undefined;
  };
  const lastLlmOutput = (): unknown => {
    for (let i = trace.steps.length - 1; i >= 0; i--) {
      const step = trace.steps[i]!;
      if (step.type !== 'llm' || step.output === undefined) continue;
      const text = textOf(step.output);
      if (text.trim()) return text;
    }
    return undefined;
  };
  const input = textOf(trace.input ?? firstUserText());
  const output = textOf(trace.output ?? lastLlmOutput());
  const words = contentTokens(output);
  if (words.length > 0 && words.length < 3) tokens.push(`o:${words.join(' ')}`);
  for (let i = 0; i + 2 < words.length; i++) tokens.push(`o:${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  const io = input && output ? lexicalSimilarity(input, output) : undefined;
  return {
    toolSteps,
    failedToolSteps,
    ...(io === undefined || !Number.isFinite(io) ? {} : { ioSimilarity: Math.min(1, Math.max(0, io)) }),
    fingerprint: sketch(tokens),
  };
}

describe('content words read without a string per word', () => {
  it('are the words contentTokens reads, whatever the text holds', () => {
    const long = 'alpha beta '.repeat(MAX_TEXT_CHARS / 11) + 'Gamma123 delta';
    const cutInAWord = 'x'.repeat(MAX_TEXT_CHARS - 3) + ' abcdef';
    const texts = [
      '',
      '   ',
      'The refund for Order 42 is LATE; please check it.',
      'a b c 1 2 3 ab 12 x9 I You YOUR your-order e-mail',
      'snake_case and kebab-case, CamelCase, v2.3.1, $4.50, 50%',
      'Ünïcödé wörds: café NAÏVE Straße İstanbul ǅemal',
      'Σίσυφος ΟΔΟΣ — 東京 タワー 123 ١٢٣ four ⅷ',
      'emoji 🙂 between words 🙂🙂 and 𝒳 astral letters',
      'combining e\u0301 accents and zero\u200bwidth',
      long,
      cutInAWord,
    ];
    for (const text of texts)
      expect(wordsOf(text), JSON.stringify(text.slice(0, 60))).toEqual(contentTokens(text));
  });

  it('count distinct words and find words of another list by content', () => {
    const a = new WordList().read('Order order ORDER refund 42 refund shipment');
    const b = new WordList().read('shipment of the order, café');
    const set = new WordSet().build(a);
    expect(set.size).toBe(new Set(contentTokens('Order order ORDER refund 42 refund shipment')).size);
    expect(Array.from({ length: b.count }, (_, j) => set.has(b, j))).toEqual([true, true, false]);
  });

  it('of text parts, with long parts remembered, are the distinct words of the joined text', () => {
    const distinct = (list: WordList) => {
      const set = new WordSet().build(list);
      return new Set(Array.from({ length: set.size }, (_, m) => list.word(set.members[m]!)));
    };
    const system = 'You are the Support Bot for ACME: refunds, orders, 42 warehouses. '.repeat(40);
    const long = 'Quarterly revenue report for cohort 7 and churn metrics. '.repeat(30);
    const cases: string[][] = [
      [],
      [''],
      ['', ''],
      ['gpt-4o', system, 'Where is my order 1234?'],
      [system, long],
      // The part that crosses MAX_TEXT_CHARS is read as cut, and the parts after it not at all.
      [system, long, long, long, 'never read'],
      ['x'.repeat(MAX_TEXT_CHARS - system.length - 1), system, 'tail words'],
      ['y'.repeat(MAX_TEXT_CHARS - system.length - 2), system, 'tail words'],
      // Beyond ASCII in another part: the joined text is read whole (Unicode case mapping).
      [system, 'Ünïcödé ÖRDER Straße'],
      [`${system} café`, system],
      ['a'.repeat(MAX_TEXT_CHARS + 10), system],
    ];
    const known = new PartWords();
    // Three passes: a part is remembered the second time it is seen, then read from memory.
    for (let pass = 0; pass < 3; pass++)
      for (const parts of cases) {
        const joined = parts.join('\n').slice(0, MAX_TEXT_CHARS);
        const list = new WordList();
        expect(readDistinctParts(list, parts, known)).toBe(joined.length > 0);
        expect(distinct(list), JSON.stringify(parts.map((p) => p.slice(0, 20)))).toEqual(
          new Set(contentTokens(joined)),
        );
      }
    // textParts are what textOf joins.
    const value = [
      { role: 'system', content: system },
      { question: 'why', n: 1 },
    ];
    expect(textParts(value).join('\n').slice(0, MAX_TEXT_CHARS)).toBe(textOf(value));
  });

  it('keep the bottom-k sketch a sort of every distinct hash would keep', () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (const n of [0, 1, 5, 31, 32, 33, 200, 5_000]) {
      const hashes = Array.from({ length: n }, () => next() % (n < 100 ? 50 : 1 << 30));
      const kept = new BottomK(32);
      for (const h of hashes) kept.offer(h);
      const reference = [...new Set(hashes)].sort((x, y) => x - y).slice(0, 32);
      expect(kept.values).toEqual(reference);
    }
  });
});

describe('session facts on bench inputs', () => {
  let inputs: BenchInputs;
  beforeAll(async () => {
    inputs = await benchInputs(600_000);
  }, 60_000);
  afterAll(() => inputs?.remove());

  it.each(BENCH_FORMATS)(
    'are those the regex tokens and sorted hashes gave, on every %s trace',
    async (format) => {
      const { traces } = await loadTraces(path.join(inputs.dir, inputs.files[format]));
      expect(traces.length).toBeGreaterThan(10);
      let compared = 0;
      let withSimilarity = 0;
      for (const { trace } of traces) {
        const before = factsBefore(trace);
        expect(sessionFactsOf(trace), trace.id).toEqual(before);
        // Without the fingerprint (a trace that names no session), the other facts are the same.
        expect(sessionFactsOf(trace, { fingerprint: false })).toEqual({ ...before, fingerprint: [] });
        compared++;
        if (before.ioSimilarity !== undefined) withSimilarity++;
      }
      expect(compared).toBe(traces.length);
      expect(withSimilarity).toBeGreaterThan(traces.length / 2);
    },
  );
});

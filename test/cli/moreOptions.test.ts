/**
 * Options a CI user reaches for: pricing calls that name no model, turning a detector off with
 * `false`, and failing the gate on runs whose recorded outcome failed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli as runInProcess } from '../helpers/cli.js';
import { ReportSchema } from '../../src/report/schema.js';

/** The CLI in a fresh directory holding `files`, with its state there too. */
async function cli(args: string[], files: Record<string, string>) {
  const d = mkdtempSync(path.join(tmpdir(), 'tj-options-'));
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(d, name), body);
  return runInProcess([...args, '--state-dir', d], d);
}

const unnamed = JSON.stringify({
  id: 'u1',
  status: 'ok',
  output: 'done',
  steps: [
    {
      type: 'llm',
      model: 'unknown',
      output: 'done',
      finishReason: 'stop',
      usage: { inputTokens: 1000000, outputTokens: 0 },
    },
  ],
});

describe('--default-model and prices.defaultModel', () => {
  it('leaves calls that name no model unpriced, and the note names the option', async () => {
    const { stdout } = await cli(['analyze', 'a.jsonl', '--format', 'json'], { 'a.jsonl': unnamed });
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect(report.totals.unknownModels).toEqual([{ model: 'unknown', calls: 1 }]);
    expect(report.notes.join('\n')).toMatch(/--default-model or prices\.defaultModel/);
  });

  it('prices them as the named model, from the flag or the config', async () => {
    for (const [args, files] of [
      [['--default-model', 'gpt-4o-mini'], {}],
      [
        [],
        { 'tracejury.yml': 'prices:\n  defaultModel: my-llm\n  my-llm: { inputPer1M: 2, outputPer1M: 4 }\n' },
      ],
    ] as const) {
      const { stdout } = await cli(['analyze', 'a.jsonl', '--format', 'json', ...args], {
        'a.jsonl': unnamed,
        ...files,
      });
      const report = ReportSchema.parse(JSON.parse(stdout));
      expect(report.totals.unknownModels).toEqual([]);
      expect(report.totals.costUsd).toBeGreaterThan(0);
    }
    const mine = await cli(['analyze', 'a.jsonl', '--format', 'json'], {
      'a.jsonl': unnamed,
      'tracejury.yml': 'prices:\n  defaultModel: my-llm\n  my-llm: { inputPer1M: 2, outputPer1M: 4 }\n',
    });
    expect(ReportSchema.parse(JSON.parse(mine.stdout)).totals.costUsd).toBeCloseTo(2, 9);
  });

  it('refuses a default model nothing can price', async () => {
    const { code, stderr } = await cli(['analyze', 'a.jsonl', '--default-model', 'gpt-4q'], {
      'a.jsonl': unnamed,
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^tracejury: --default-model gpt-4q: the price table does not know this model/);
  });
});

const loop = JSON.stringify({
  id: 'loopy',
  steps: [1, 2, 3, 4].map(() => ({ type: 'tool', name: 'search_docs', args: { q: 'x' }, status: 'ok' })),
});

describe('detector: false', () => {
  it('turns the detector off, as { enabled: false } does', async () => {
    const on = await cli(['analyze', 'a.jsonl', '--format', 'json'], { 'a.jsonl': loop });
    expect(ReportSchema.parse(JSON.parse(on.stdout)).signals.some((s) => s.detector === 'TOOL_LOOP')).toBe(
      true,
    );
    const off = await cli(['analyze', 'a.jsonl', '--format', 'json'], {
      'a.jsonl': loop,
      'tracejury.yml': 'default:\n  tool_loop: false\n',
    });
    expect(ReportSchema.parse(JSON.parse(off.stdout)).signals.some((s) => s.detector === 'TOOL_LOOP')).toBe(
      false,
    );
  });

  it('says what a detector key takes when given something else', async () => {
    const { code, stderr } = await cli(['analyze', 'a.jsonl'], {
      'a.jsonl': loop,
      'tracejury.yml': 'default:\n  tool_loop: 5\n',
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /tracejury\.yml:2: default\.tool_loop: expected true, false or the detector's settings/,
    );
  });
});

describe('failOn.outcome', () => {
  const runs = [
    JSON.stringify({
      id: 'won',
      status: 'ok',
      output: 'ok',
      outcome: { success: true, source: 'eval' },
      steps: [],
    }),
    JSON.stringify({
      id: 'lost',
      status: 'ok',
      output: 'ok',
      outcome: { success: false, source: 'eval' },
      steps: [],
    }),
  ].join('\n');

  it('fails the gate on a failed recorded outcome only when asked', async () => {
    const plain = await cli(['analyze', 'runs.jsonl', '--format', 'json'], { 'runs.jsonl': runs });
    expect(plain.code).toBe(0);
    const strict = await cli(['analyze', 'runs.jsonl', '--format', 'json'], {
      'runs.jsonl': runs,
      'tracejury.yml': 'failOn:\n  outcome: true\n',
    });
    expect(strict.code).toBe(1);
    expect(ReportSchema.parse(JSON.parse(strict.stdout)).gate.reasons).toEqual([
      '1 trace with a failed outcome (failOn.outcome; first: runs.jsonl lost)',
    ]);
  });
});

describe('model names get a did-you-mean', () => {
  it('on --default-model', async () => {
    const { code, stderr } = await cli(['analyze', 'a.jsonl', '--default-model', 'gpt-4o-mnii'], {
      'a.jsonl': unnamed,
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/--default-model gpt-4o-mnii: .* — did you mean "gpt-4o-mini"\?/);
  });

  it('on cheap_alternative_model (an error: waste is priced on it) and expensive_models (a warning)', async () => {
    const alt = await cli(['analyze', 'a.jsonl'], {
      'a.jsonl': unnamed,
      'tracejury.yml': 'default:\n  overkill_model:\n    cheap_alternative_model: gpt-4o-mnii\n',
    });
    expect(alt.code).toBe(2);
    expect(alt.stderr).toMatch(
      /^tracejury: tracejury\.yml:3: default\.overkill_model\.cheap_alternative_model: .* — did you mean "gpt-4o-mini"\?/,
    );
    const list = await cli(['analyze', 'a.jsonl', '--format', 'json'], {
      'a.jsonl': unnamed,
      'tracejury.yml': 'default:\n  overkill_model:\n    expensive_models: [gpt-4-turob, my-private-llm]\n',
    });
    const notes = ReportSchema.parse(JSON.parse(list.stdout)).notes.join('\n');
    expect(notes).toMatch(
      /"gpt-4-turob" is not a model the price table knows — did you mean "gpt-4-turbo"\?/,
    );
    expect(notes).not.toMatch(/my-private-llm/);
  });
});

/**
 * Input that could not be read fails the gate: a truncated trace file or a recorder bug must not
 * turn a CI check green. Each malformed-input case of docs/cli.md, in every output format: exit 1,
 * the reason in gate.reasons, `file:line` on stderr (stdout stays a clean report), the good traces
 * beside the bad input still analysed; and exit 0 when errors are allowed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { ReportSchema } from '../../src/report/schema.js';

const root = path.resolve(import.meta.dirname, '../..');

const trace = (id: string) =>
  JSON.stringify({
    id,
    status: 'ok',
    output: 'done',
    steps: [
      {
        type: 'llm',
        model: 'gpt-4o-mini',
        output: 'done',
        finishReason: 'stop',
        usage: { inputTokens: 10, outputTokens: 5 },
      },
    ],
  });

/** Each case: the files, the path to analyse, the good traces in it, and what stderr must name. */
const cases: Record<string, { files: Record<string, string | Buffer>; good: number; where: RegExp }> = {
  'a truncated last line': {
    files: { 'runs.jsonl': `${trace('a')}\n${trace('b')}\n${trace('c').slice(0, 40)}` },
    good: 2,
    where: /^runs\.jsonl:3: not valid JSON/m,
  },
  'a binary file beside a good one': {
    files: { 'runs.jsonl': trace('a'), 'dump.jsonl': Buffer.from([0x7b, 0x00, 0x01, 0xff, 0x0a]) },
    good: 1,
    where: /^dump\.jsonl: binary file, not a trace file/m,
  },
  'wrong field types': {
    files: {
      'runs.jsonl': `${trace('a')}\n${JSON.stringify({ id: 'bad', steps: [{ type: 'llm', model: 7, usage: { inputTokens: 'x' } }] })}\n`,
    },
    good: 1,
    where: /^runs\.jsonl:2: steps\[0\]\.model: trace bad: /m,
  },
  'a directory with one bad file': {
    files: {
      'traces/a.jsonl': trace('a'),
      'traces/b.jsonl': trace('b'),
      'traces/c.jsonl': '{"id": "c", "steps": [',
    },
    good: 2,
    where: /^traces\/c\.jsonl:1: not valid JSON/m,
  },
};

function dirWith(files: Record<string, string | Buffer>): string {
  const d = mkdtempSync(path.join(tmpdir(), 'tj-input-errors-'));
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(d, name)), { recursive: true });
    writeFileSync(path.join(d, name), body);
  }
  return d;
}

const target = (files: Record<string, unknown>) =>
  Object.keys(files).some((f) => f.startsWith('traces/')) ? 'traces' : '.';

describe.each(Object.keys(cases))('%s', (name) => {
  const { files, good, where } = cases[name]!;

  it.each(['text', 'json', 'markdown'])('fails the gate with the reason in --format %s', async (format) => {
    const d = dirWith(files);
    const { code, stdout, stderr } = await cli(['analyze', target(files), '--format', format], d);
    expect(code).toBe(1);
    expect(stderr).toMatch(where);
    if (format === 'json') {
      const report = ReportSchema.parse(JSON.parse(stdout));
      expect(report.gate.passed).toBe(false);
      expect(report.gate.reasons[0]).toMatch(/^1 input error: input that could not be read \(first: /);
      expect(report.inputs.traces).toBe(good);
    } else if (format === 'markdown') {
      expect(stdout).toMatch(/❌ failed/);
      expect(stdout).toMatch(/1 input error: input that could not be read/);
    } else {
      expect(stdout).toMatch(
        /Gate: FAILED \(failOn: critical, high\) — 1 input error: input that could not be read/,
      );
    }
  });

  it('passes with --allow-input-errors, and says the errors were allowed', async () => {
    const d = dirWith(files);
    const { code, stdout, stderr } = await cli(
      ['analyze', target(files), '--format', 'json', '--allow-input-errors'],
      d,
    );
    expect(code).toBe(0);
    expect(stderr).toMatch(where);
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect(report.gate).toEqual({
      passed: true,
      reasons: [],
      allowedInputErrors: 1,
      failOn: ['critical', 'high'],
    });
    expect(report.inputs.traces).toBe(good);
    expect(report.notes.join('\n')).toMatch(/1 input error allowed/);
  });
});

describe('input errors', () => {
  const many = [trace('good'), ...Array.from({ length: 25 }, (_, i) => `{"broken": ${i}`)].join('\n') + '\n';

  it('lists the first 20 on stderr and counts the rest, with --out too', async () => {
    const d = dirWith({ 'runs.jsonl': many });
    const { code, stdout, stderr } = await cli(['analyze', 'runs.jsonl', '--out', 'report.json'], d);
    expect(code).toBe(1);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(21);
    expect(lines.slice(0, 20).every((l, i) => l.startsWith(`runs.jsonl:${i + 2}: not valid JSON`))).toBe(
      true,
    );
    expect(lines[20]).toBe(
      "… and 5 more input errors; the report's inputs.errors lists up to 25 (--format json)",
    );
  });

  it('does not fail the gate when the config says failOn: { inputErrors: false }', async () => {
    const d = dirWith({
      'runs.jsonl': many,
      'tracejury.yml': 'failOn:\n  severity: high\n  inputErrors: false\n',
    });
    const { code, stdout } = await cli(['analyze', 'runs.jsonl', '--format', 'text'], d);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Gate: passed \(failOn: critical, high\) \(input errors allowed: 25\)/);
  });

  it('names a misspelt failOn key with its line and the nearest one', async () => {
    const d = dirWith({ 'runs.jsonl': trace('a'), 'tracejury.yml': 'failOn:\n  inputError: false\n' });
    const { code, stderr } = await cli(['analyze', 'runs.jsonl'], d);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /tracejury\.yml:2: unknown key "failOn\.inputError" — did you mean "inputErrors"\?/,
    );
  });

  it('through the built bin: exit 1, the error on stderr, only JSON on stdout', () => {
    const d = dirWith({ 'runs.jsonl': `${trace('a')}\n{"id": "b", "steps": [\n` });
    const run = spawnSync(
      process.execPath,
      [path.join(root, 'build/cli/bin.js'), 'analyze', 'runs.jsonl', '--format', 'json'],
      {
        cwd: d,
        encoding: 'utf8',
        env: { ...process.env, CI: 'true' },
      },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^runs\.jsonl:2: not valid JSON/);
    expect(ReportSchema.parse(JSON.parse(run.stdout)).gate.passed).toBe(false);
  });
});

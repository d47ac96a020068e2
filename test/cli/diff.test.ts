/** `tracejury diff`: exit codes, formats, --out, --config and the messages for bad report files. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReportDiffSchema } from '../../src/diff/schema.js';
import { cli } from '../helpers/cli.js';
import { finding, report, taskRun, trace } from '../diff/reports.js';

const traces = [trace({ id: 'a' }), trace({ id: 'b' })];
const base = report({ traces });
/** 30 tasks run once a side: all passed in base, 20 fail in head (and one loops). */
const passing = taskRun(
  Array.from({ length: 30 }, () => [true]),
  { file: 'runs.jsonl' },
);
const regressed = taskRun(
  Array.from({ length: 30 }, (_, i) => [i >= 20]),
  { file: 'runs.jsonl', flag: (i) => i === 1 },
);

function dir(files: Record<string, unknown>): string {
  const d = mkdtempSync(path.join(tmpdir(), 'tj-diff-'));
  for (const [name, body] of Object.entries(files))
    writeFileSync(path.join(d, name), typeof body === 'string' ? body : JSON.stringify(body));
  return d;
}

describe('tracejury diff', () => {
  it('exits 0 when the regression gate passes', async () => {
    const d = dir({ 'base.json': base, 'head.json': base });
    const r = await cli(['diff', 'base.json', 'head.json'], d);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^tracejury diff — base 2 traces, head 2 traces\n\nRegression gate: passed/);
    expect(r.stderr).toBe('');
  });

  it('exits 1 when it fails, naming success with its change in every format', async () => {
    const d = dir({ 'base.json': passing, 'head.json': regressed });
    const text = await cli(['diff', 'base.json', 'head.json'], d);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      /Regression gate: FAILED — success 100 % → 33 % \(−67 pts, 95 % interval −\d+ … −\d+\), 30 tasks paired: worse beyond noise/,
    );
    expect(text.stdout).toMatch(/^Success: 100 % \(30\/30\).* → 33 % \(10\/30\).*, from recorded outcomes$/m);
    const json = await cli(['diff', 'base.json', 'head.json', '--format', 'json'], d);
    expect(json.code).toBe(1);
    const diff = ReportDiffSchema.parse(JSON.parse(json.stdout));
    expect(diff.gate.decidedBy).toBe('success');
    expect(diff.outcomes!.flipped.toFailCount).toBe(20);
    const md = await cli(['diff', 'base.json', 'head.json', '--format', 'markdown'], d);
    expect(md.stdout).toMatch(/^### tracejury diff ❌ success 100 % → 33 % \(−67 pts/);
  });

  it('applies the regression: section of --config (or of tracejury.yml in the working directory)', async () => {
    const d = dir({
      'base.json': passing,
      'head.json': regressed,
      'findings-only.yml': 'regression:\n  gate: [findings]\n',
    });
    expect((await cli(['diff', 'base.json', 'head.json', '--config', 'findings-only.yml'], d)).code).toBe(0);
    writeFileSync(path.join(d, 'tracejury.yml'), 'regression:\n  minEffect: { success: 0.9 }\n');
    expect((await cli(['diff', 'base.json', 'head.json'], d)).code).toBe(0);
    // A key of the first version still loads, read as its replacement, with a warning.
    writeFileSync(path.join(d, 'tracejury.yml'), 'regression:\n  verdictPassRateDrop: false\n');
    const old = await cli(['diff', 'base.json', 'head.json'], d);
    expect(old.code).toBe(0);
    expect(old.stderr).toContain(
      'tracejury: warning: tracejury.yml:2: regression.verdictPassRateDrop: false is read as leaving success out of regression.gate',
    );
    writeFileSync(path.join(d, 'tracejury.yml'), 'regression:\n  newSignal: false\n');
    const typo = await cli(['diff', 'base.json', 'head.json'], d);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'tracejury: tracejury.yml:2: unknown key "regression.newSignal" — did you mean "newSignals"?\n',
    );
  });

  it('writes --out in the format its extension names and prints one line', async () => {
    const d = dir({ 'base.json': passing, 'head.json': regressed });
    const r = await cli(['diff', 'base.json', 'head.json', '--out', 'out/diff.md'], d);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'tracejury diff: success 100 % → 33 %, waste $0.00 → $0.00, 1 new finding, 0 resolved, regression gate FAILED → out/diff.md\n',
    );
    expect(readFileSync(path.join(d, 'out/diff.md'), 'utf8')).toMatch(/^### tracejury diff/);
    await cli(['diff', 'base.json', 'head.json', '--out', 'diff.json'], d);
    expect(
      ReportDiffSchema.parse(JSON.parse(readFileSync(path.join(d, 'diff.json'), 'utf8'))).gate.passed,
    ).toBe(false);
  });

  it('exits 2 naming the file and the field when a report is not a Report v1', async () => {
    const broken = JSON.parse(JSON.stringify(base));
    broken.signals = [{ ...finding({ traceId: 'a' }), status: 'maybe' }];
    const d = dir({
      'base.json': base,
      'bad.json': broken,
      'notjson.json': '{"schemaVersion": 1',
      'old.json': {},
    });
    const r = await cli(['diff', 'base.json', 'bad.json'], d);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^tracejury: bad\.json: not a Report v1: signals\.0\.status: Invalid option/);
    const notJson = await cli(['diff', 'notjson.json', 'base.json'], d);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/^tracejury: notjson\.json: not valid JSON \(/);
    const empty = await cli(['diff', 'base.json', 'old.json'], d);
    expect(empty.stderr).toMatch(
      /^tracejury: old\.json: not a Report v1: schemaVersion: .* \(and \d+ more problems\)\n$/,
    );
    const missing = await cli(['diff', 'base.json', 'nope.json'], d);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^tracejury: nope\.json: cannot read the report: /);
  });

  it('exits 2 on usage errors, and has its own --help', async () => {
    const d = dir({ 'base.json': base });
    const one = await cli(['diff', 'base.json'], d);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/diff needs two reports, base then head \(got 1\)/);
    const typo = await cli(['diff', 'base.json', 'base.json', '--fromat', 'json'], d);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/diff: unknown option --fromat — did you mean --format\?/);
    expect((await cli(['diff', 'base.json', 'base.json', '--format', 'yaml'], d)).code).toBe(2);
    const help = await cli(['diff', '--help'], d);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^tracejury diff <base-report\.json> <head-report\.json>/);
    expect(help.stdout).toMatch(/Exit status: 0 the regression gate passed, 1 it failed, 2/);
    expect(help.stdout).toMatch(/^ {2}finding /m);
    expect((await cli(['--help'], d)).stdout).toMatch(/tracejury diff <base\.json> <head\.json>/);
  });
});

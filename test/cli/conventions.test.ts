/**
 * CLI conventions a CI user relies on, through the built bin as a shell runs it: usage and errors
 * on stderr, each command's own help, --out picking the format from the extension, --fail-on, and a
 * reader that closes the pipe early ending the run quietly.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReportSchema } from '../../src/report/schema.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'build/cli/bin.js');
const examples = path.join(root, 'examples/traces');

function run(args: string[], cwd = root) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('tracejury CLI conventions', () => {
  it('prints usage on stderr and exits 2 when run with no arguments', () => {
    const r = run([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^tracejury .* — evals for LLM agents in CI/);
    expect(r.stderr).toMatch(/Run tracejury <command> --help/);
  });

  it('gives each command its own help, with exit codes and the glossary', () => {
    const analyze = run(['analyze', '--help']);
    expect(analyze.code).toBe(0);
    expect(analyze.stdout).toMatch(/^tracejury analyze </);
    expect(analyze.stdout).toMatch(/--fail-on SEVERITY/);
    expect(analyze.stdout).toMatch(/Exit status: 0 the gate passed, 1 it failed/);
    for (const word of ['severity', 'confidence', 'review', 'suppressed', 'shadow', 'failOn'])
      expect(analyze.stdout).toMatch(new RegExp(`^  ${word} `, 'm'));
    const baseline = run(['baseline', '--help']);
    expect(baseline.stdout).toMatch(/^tracejury baseline update\|show\|reset/);
    expect(baseline.stdout).toMatch(/learns only good runs/);
    expect(run(['schema', '--help']).stdout).toMatch(/^tracejury schema trace\|config\|report/);
  });

  it('writes markdown to --out report.md and JSON to --out report.json, unless --format says otherwise', () => {
    const d = mkdtempSync(path.join(tmpdir(), 'tj-out-'));
    const state = ['--state-dir', d];
    run(['analyze', examples, '--out', path.join(d, 'report.md'), ...state]);
    expect(readFileSync(path.join(d, 'report.md'), 'utf8')).toMatch(/^### tracejury /);
    run(['analyze', examples, '--out', path.join(d, 'report.json'), ...state]);
    expect(ReportSchema.parse(JSON.parse(readFileSync(path.join(d, 'report.json'), 'utf8'))).tool.name).toBe(
      'tracejury',
    );
    run(['analyze', examples, '--out', path.join(d, 'forced.md'), '--format', 'json', ...state]);
    expect(() => JSON.parse(readFileSync(path.join(d, 'forced.md'), 'utf8'))).not.toThrow();
    run(['analyze', examples, '--out', path.join(d, 'report.txt'), ...state]);
    expect(readFileSync(path.join(d, 'report.txt'), 'utf8')).toMatch(/^tracejury \d/);
  });

  it('--fail-on sets the severities that fail the gate', () => {
    const d = mkdtempSync(path.join(tmpdir(), 'tj-failon-'));
    const high = run(['analyze', examples, '--format', 'json', '--state-dir', d]);
    expect(high.code).toBe(1);
    // Session scores gate too (sessions.failGate); here only the severities are under test.
    writeFileSync(path.join(d, 'tracejury.yml'), 'sessions:\n  failGate: false\n');
    const critical = run([
      'analyze',
      examples,
      '--format',
      'json',
      '--fail-on',
      'critical',
      '--config',
      path.join(d, 'tracejury.yml'),
      '--state-dir',
      d,
    ]);
    expect(critical.code).toBe(0);
    expect(ReportSchema.parse(JSON.parse(critical.stdout)).gate.passed).toBe(true);
    const typo = run(['analyze', examples, '--fail-on', 'hgh']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'tracejury: --fail-on hgh: expected one of critical, high, medium, low — did you mean high?\n',
    );
  });

  it('ends quietly when the reader closes the pipe, with the gate exit code and no stack trace', () => {
    // A report of several megabytes: far more than a pipe buffers, so the writer meets the closed pipe.
    const d = mkdtempSync(path.join(tmpdir(), 'tj-pipe-'));
    const loop = (i: number) =>
      JSON.stringify({
        id: `loop-${i}`,
        steps: [1, 2, 3, 4].map(() => ({ type: 'tool', name: 'search_docs', status: 'ok' })),
      });
    writeFileSync(path.join(d, 'loops.jsonl'), Array.from({ length: 5000 }, (_, i) => loop(i)).join('\n'));
    const r = spawnSync(
      'bash',
      [
        '-c',
        `"${process.execPath}" "${bin}" analyze loops.jsonl --format json | head -c 100 > /dev/null; echo "\${PIPESTATUS[0]}"`,
      ],
      { cwd: d, encoding: 'utf8', env: { ...process.env, CI: 'true' } },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('1');
    const full = spawnSync(process.execPath, [bin, 'analyze', 'loops.jsonl', '--format', 'json'], {
      cwd: d,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    expect(full.stdout.length).toBeGreaterThan(1 << 20);
  });
});

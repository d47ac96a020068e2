/**
 * Agent ids, trace ids, versions, tool and model names and errors that carry a newline and a
 * workflow command (`::add-mask::`, `::stop-commands::`, `::error …::`, `##[…]`) or terminal
 * control (ESC, a bare CR, a bidi override): in every CLI command and format, nothing of them
 * reaches stdout or stderr as a command line or as a raw control character.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { cli } from '../helpers/cli.js';

const EVIL = (what: string) =>
  `${what}\n::add-mask::${what}\r::stop-commands::tok\n  ::error file=a.ts::forged\n##[warning]v1\x1b[2J\x1b]0;title\x07\u202e`;

/** A run with a failing tool and a loop; `good` gives a clean run, which baselines learn. */
function hostileTrace(id: string, good = false): string {
  return JSON.stringify({
    id: EVIL(id),
    agentId: EVIL('agent'),
    agentVersion: EVIL('1.0'),
    sessionId: EVIL('session'),
    status: 'ok',
    steps: [
      { type: 'llm', model: EVIL('model'), output: 'ok', usage: { inputTokens: 10, outputTokens: 2 } },
      ...(good ? [] : badSteps),
    ],
  });
}

const badSteps = [
  { type: 'tool', name: EVIL('tool'), status: 'error', error: EVIL('boom') },
  ...Array.from({ length: 4 }, () => ({ type: 'tool', name: EVIL('loop'), args: { q: 1 }, status: 'ok' })),
];

function expectNoCommandsOrControls(surface: string, text: string): void {
  expect(text, `${surface}: a workflow command line`).not.toMatch(/(^|[\r\n])\s*(::|##\[)/);
  expect(text, `${surface}: a raw control character`).not.toMatch(
    /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/,
  );
}

describe('data never reaches the terminal or the Actions log as a command or a control sequence', () => {
  it('in analyze, baseline, diff and merge, every format', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-term-'));
    writeFileSync(
      path.join(dir, 'runs.jsonl'),
      `${hostileTrace('a')}\n${hostileTrace('b', true)}\n{"id": 1}\n`,
    );
    const report = await analyze([path.join(dir, 'runs.jsonl')], { cwd: dir, baselines: false });
    const version = { ...report, tool: { name: 'tracejury' as const, version: EVIL('9.9') } };
    writeFileSync(path.join(dir, 'report.json'), JSON.stringify(version));
    const commands = [
      ['analyze', 'runs.jsonl'],
      ['analyze', 'runs.jsonl', '--format', 'markdown'],
      ['analyze', 'runs.jsonl', '--format', 'json'],
      ['analyze', 'runs.jsonl', '--out', 'out.md'],
      ['baseline', 'update', 'runs.jsonl'],
      ['baseline', 'show'],
      ['baseline', 'show', '--format', 'json'],
      ['baseline', 'show', 'nobody'],
      ['baseline', 'reset', 'nobody'],
      ['diff', 'report.json', 'report.json'],
      ['diff', 'report.json', 'report.json', '--format', 'markdown'],
      ['merge', 'report.json', 'report.json', '--format', 'text'],
      ['merge', 'report.json', 'report.json', '--format', 'markdown'],
      ['merge', 'report.json', 'report.json'],
      ['baseline', 'reset'],
    ];
    for (const args of commands) {
      const { stdout, stderr } = await cli(args, dir);
      const surface = `tracejury ${args.join(' ')}`;
      expectNoCommandsOrControls(`${surface} (stdout)`, stdout);
      expectNoCommandsOrControls(`${surface} (stderr)`, stderr);
    }
    // The ids are still there to read, shown rather than obeyed.
    const { stdout } = await cli(['baseline', 'update', 'runs.jsonl'], dir);
    expect(stdout).toContain('agent\\n::add-mask::agent');
  });

  it('keeps the CLI’s own colours on a terminal while data stays inert', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-term-'));
    writeFileSync(path.join(dir, 'runs.jsonl'), `${hostileTrace('a')}\n`);
    let stdout = '';
    const { runCli } = await import('../../src/cli/main.js');
    await runCli(['analyze', 'runs.jsonl'], {
      stdout: { write: (s: string) => (stdout += s), isTTY: true },
      stderr: { write: () => true },
      cwd: dir,
      env: {},
    });
    expect(stdout).toContain('\x1b[1m');
    expect(stdout.replace(/\x1b\[[0-9;]*m/g, '')).not.toMatch(/[\x00-\x08\x0b-\x1f]/);
    expect(stdout).toContain('\\x1b[2J');
  });
});

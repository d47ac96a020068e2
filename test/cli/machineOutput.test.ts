/**
 * `--format json` and `--format html` on stdout stay what they claim to be whatever the data:
 * DEL, a C1 control, U+2028/2029 and bidi controls in a trace are escaped by the serialiser
 * (`\u007f`, `\u2028`, `\u202e`), never rewritten afterwards by the terminal filter (`\x7f`,
 * `\u{2028}`), which made `analyze … --format json > report.json` unreadable. Run through the
 * built CLI as a shell runs it, for analyze, merge and diff, and baseline show.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PAGE_DATA_ID } from '../../src/report/html/pageData.js';

const bin = fileURLToPath(new URL('../../build/cli/bin.js', import.meta.url));

/** Every character JSON.stringify leaves raw that a terminal filter rewrites. */
const AWKWARD = 'del\u007f c1\u0085\u009b ls\u2028 ps\u2029 rlo\u202e lri\u2066 pdi\u2069 rlm\u200f';
const ID = `run-${AWKWARD}`;

function tracejury(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** No raw control or bidi character: safe on a terminal, the same value to any JSON reader. */
const RAW_CONTROL =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-machine-'));
  const trace = {
    id: ID,
    agentId: 'agent',
    status: 'ok',
    steps: [
      {
        type: 'llm',
        model: 'gpt-4o-mini',
        output: `answer ${AWKWARD}`,
        usage: { inputTokens: 10, outputTokens: 2 },
      },
      ...Array.from({ length: 4 }, () => ({
        type: 'tool',
        name: 'search',
        args: { q: AWKWARD },
        status: 'ok',
      })),
    ],
  };
  writeFileSync(path.join(dir, 'runs.jsonl'), `${JSON.stringify(trace)}\n`);
  return dir;
}

describe('machine formats on stdout are valid whatever the data', () => {
  it('analyze, merge and diff --format json parse, and give the characters back', () => {
    const dir = workspace();
    const analyzed = tracejury(['analyze', 'runs.jsonl', '--format', 'json'], dir);
    expect(analyzed.stderr).toBe('');
    expect(analyzed.stdout).not.toMatch(RAW_CONTROL);
    const report = JSON.parse(analyzed.stdout) as { traces: { id: string }[]; signals: unknown[] };
    expect(report.traces.map((t) => t.id)).toEqual([ID]);
    expect(analyzed.stdout).toContain('\\u007f');
    expect(analyzed.stdout).toContain('\\u2028');
    expect(analyzed.stdout).toContain('\\u202e');
    writeFileSync(path.join(dir, 'report.json'), analyzed.stdout);

    const merged = tracejury(['merge', 'report.json', 'report.json', '--format', 'json'], dir);
    expect(merged.stdout).not.toMatch(RAW_CONTROL);
    expect((JSON.parse(merged.stdout) as { traces: { id: string }[] }).traces.map((t) => t.id)).toEqual([
      ID,
      ID,
    ]);

    // A base without the loop: head's finding on the trace is new, and the diff names its id.
    writeFileSync(path.join(dir, 'calm.jsonl'), `${JSON.stringify({ id: 'calm', steps: [] })}\n`);
    writeFileSync(
      path.join(dir, 'base.json'),
      tracejury(['analyze', 'calm.jsonl', '--format', 'json'], dir).stdout,
    );
    const diff = tracejury(['diff', 'base.json', 'report.json', '--format', 'json'], dir);
    expect(diff.stdout).not.toMatch(RAW_CONTROL);
    const parsed = JSON.parse(diff.stdout) as { signals: { new: { traceId: string }[] } };
    expect(parsed.signals.new.map((s) => s.traceId)).toEqual([ID]);
  });

  it('--format html to stdout holds page data that parses', () => {
    const dir = workspace();
    for (const args of [
      ['analyze', 'runs.jsonl', '--format', 'html'],
      ['merge', 'report.json', '--format', 'html'],
    ]) {
      if (args[0] === 'merge')
        writeFileSync(
          path.join(dir, 'report.json'),
          tracejury(['analyze', 'runs.jsonl', '--format', 'json'], dir).stdout,
        );
      const { stdout } = tracejury(args, dir);
      expect(stdout, args.join(' ')).not.toMatch(RAW_CONTROL);
      const block = new RegExp(`<script type="application/json" id="${PAGE_DATA_ID}">(.*?)</script>`).exec(
        stdout,
      );
      expect(block, args.join(' ')).not.toBeNull();
      const page = JSON.parse(block![1]!) as { report: { traces: { id: string }[] } };
      expect(page.report.traces.map((t) => t.id)).toEqual([ID]);
    }
  });

  it('baseline show --format json parses with an agent id that holds them', () => {
    const dir = workspace();
    writeFileSync(
      path.join(dir, 'good.jsonl'),
      `${JSON.stringify({ id: 'g1', agentId: `agent ${AWKWARD}`, status: 'ok', steps: [{ type: 'llm', model: 'gpt-4o-mini', output: 'ok', usage: { inputTokens: 1, outputTokens: 1 } }] })}\n`,
    );
    expect(tracejury(['baseline', 'update', 'good.jsonl'], dir).code).toBe(0);
    const shown = tracejury(['baseline', 'show', '--format', 'json'], dir);
    expect(shown.stdout).not.toMatch(RAW_CONTROL);
    const parsed = JSON.parse(shown.stdout) as { agents: { agent: string }[] };
    expect(parsed.agents.map((a) => a.agent)).toEqual([`agent ${AWKWARD}`]);
  });
});

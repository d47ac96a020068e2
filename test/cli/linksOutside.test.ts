/**
 * Links that lead outside the working directory, through the built CLI: a trace folder, a glob or
 * a named file in the checkout that is a link to a file elsewhere (`/etc/passwd`, another
 * project's traces) is an input error naming the link, and nothing of the outside file is read,
 * published as an input error, or embedded in an HTML page; `merge --out x.html` re-reads only
 * trace files really inside the working directory (as `diff` does), whatever a shard's report
 * names. The traces beside them are still analysed, and a file the user names outside the
 * working directory is still read: that is their choice, not a link's.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../build/cli/bin.js', import.meta.url));

function tracejury(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const SECRET_LINE = 'root:x:0:0:OUTSIDE-SECRET-LINE:/root:/bin/bash';

const looping = (id: string) =>
  JSON.stringify({
    id,
    steps: Array.from({ length: 4 }, () => ({ type: 'tool', name: 'search', args: { q: 1 }, status: 'ok' })),
  });

/** A checkout (`ws`) and, beside it, what it must not reach: a passwd-like file and another project's trace. */
function checkout() {
  const root = mkdtempSync(path.join(tmpdir(), 'tracejury-links-'));
  const outside = path.join(root, 'outside');
  const ws = path.join(root, 'ws');
  mkdirSync(outside);
  mkdirSync(path.join(ws, 'traces'), { recursive: true });
  writeFileSync(path.join(outside, 'passwd'), `${SECRET_LINE}\ndaemon:x:1:1:OUTSIDE-SECOND-LINE\n`);
  writeFileSync(path.join(outside, 'other.jsonl'), `${looping('outside-run')}\n`);
  writeFileSync(path.join(ws, 'traces/mine.jsonl'), `${looping('inside-run')}\n`);
  symlinkSync(path.join(outside, 'passwd'), path.join(ws, 'traces/passwd.jsonl'));
  symlinkSync(path.join(outside, 'other.jsonl'), path.join(ws, 'traces/other.jsonl'));
  return { root, ws, outside };
}

const noOutsideData = (text: string) => {
  expect(text).not.toContain('OUTSIDE-SECRET-LINE');
  expect(text).not.toContain('OUTSIDE-SECOND-LINE');
  expect(text).not.toContain('outside-run');
};

describe('analyze does not follow links out of the working directory', () => {
  it.each([
    ['a directory', ['traces']],
    ['a glob', ['traces/*.jsonl']],
    ['files named one by one', ['traces/mine.jsonl', 'traces/passwd.jsonl', 'traces/other.jsonl']],
  ])('%s: the links are input errors, the trace beside them is analysed', (_what, inputs) => {
    const { ws } = checkout();
    const run = tracejury(['analyze', ...inputs, '--format', 'json', '--allow-input-errors'], ws);
    const report = JSON.parse(run.stdout) as {
      traces: { id: string }[];
      inputs: { errors: { file: string; message: string }[] };
    };
    expect(report.traces.map((t) => t.id)).toEqual(['inside-run']);
    expect(report.inputs.errors).toEqual([
      {
        file: 'traces/other.jsonl',
        message:
          'a link to a file outside the working directory: not read (links are followed only to files inside it)',
      },
      {
        file: 'traces/passwd.jsonl',
        message:
          'a link to a file outside the working directory: not read (links are followed only to files inside it)',
      },
    ]);
    noOutsideData(run.stdout);
    noOutsideData(run.stderr);
    expect(run.stderr).toContain('traces/passwd.jsonl: a link to a file outside the working directory');
  });

  it('the HTML page embeds no outside trace', () => {
    const { ws } = checkout();
    const run = tracejury(['analyze', 'traces', '--out', 'report.html', '--allow-input-errors'], ws);
    expect(run.code, run.stderr).toBe(1);
    const html = readFileSync(path.join(ws, 'report.html'), 'utf8');
    noOutsideData(html);
    expect(html).toContain('inside-run');
  });

  it('a file the user names outside the working directory is read: their choice, not a link', () => {
    const { ws, outside } = checkout();
    const run = tracejury(['analyze', path.join(outside, 'other.jsonl'), '--format', 'json'], ws);
    expect((JSON.parse(run.stdout) as { traces: { id: string }[] }).traces.map((t) => t.id)).toEqual([
      'outside-run',
    ]);
  });
});

describe('merge and diff --out x.html read trace files only inside the working directory', () => {
  /** A shard's report that names the inside trace, the link, and a path out of the checkout. */
  function shardReport(ws: string): void {
    const inside = tracejury(['analyze', 'traces/mine.jsonl', '--format', 'json'], ws).stdout;
    const report = JSON.parse(inside) as {
      traces: { file: string; id: string }[];
      signals: { file?: string; traceId: string }[];
    };
    const named = (file: string, id: string) => ({
      traces: report.traces.map((t) => ({ ...t, file, id })),
      signals: report.signals.map((s) => ({ ...s, file, traceId: id })),
    });
    const viaLink = named('traces/other.jsonl', 'outside-run');
    const climbing = named('../outside/other.jsonl', 'outside-run');
    writeFileSync(
      path.join(ws, 'shard.json'),
      JSON.stringify({
        ...report,
        traces: [...report.traces, ...viaLink.traces, ...climbing.traces],
        signals: [...report.signals, ...viaLink.signals, ...climbing.signals],
      }),
    );
  }

  it('merge: the inside trace is embedded, the link and the ../ path are not read', () => {
    const { ws } = checkout();
    shardReport(ws);
    const run = tracejury(['merge', 'shard.json', '--out', 'merged.html'], ws);
    expect(run.stderr).toContain('traces/other.jsonl (outside');
    expect(run.stderr).toContain('../outside/other.jsonl (outside');
    const html = readFileSync(path.join(ws, 'merged.html'), 'utf8');
    // The page names the trace (it is in the report) but holds none of its steps.
    expect(html).not.toContain('OUTSIDE-SECRET-LINE');
    const blocks = [
      ...html.matchAll(/<script type="application\/json" id="tj-trace-\d+">(.*?)<\/script>/g),
    ].map((m) => (JSON.parse(m[1]!) as { id: string }).id);
    expect(blocks).toEqual(['inside-run']);
  });

  it('diff: a link in head’s report is refused as the ../ path already was', () => {
    const { ws } = checkout();
    shardReport(ws);
    writeFileSync(
      path.join(ws, 'base.json'),
      tracejury(['analyze', 'traces/mine.jsonl', '--format', 'json'], ws).stdout,
    );
    const run = tracejury(['diff', 'base.json', 'shard.json', '--out', 'diff.html'], ws);
    expect(run.stderr).toContain('traces/other.jsonl (outside');
    const html = readFileSync(path.join(ws, 'diff.html'), 'utf8');
    const blocks = [
      ...html.matchAll(/<script type="application\/json" id="tj-trace-\d+">(.*?)<\/script>/g),
    ].map((m) => (JSON.parse(m[1]!) as { id: string }).id);
    expect(blocks).not.toContain('outside-run');
  });
});

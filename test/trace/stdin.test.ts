/** `-` reads stdin: JSONL only, and grouping formats through a bounded window of open traces. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadTraces } from '../../src/trace/load.js';

const record = (traceId: string, i: number) =>
  JSON.stringify({
    traceId,
    startTime: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    input: { model: 'gpt-4o', prompt: `call ${i}` },
    usage: { prompt_tokens: 10, completion_tokens: 2 },
  });

const stdinOf = (text: string) => Readable.from([Buffer.from(text)]);

const shape = (traces: Awaited<ReturnType<typeof loadTraces>>['traces']) =>
  traces.map((t) => [t.trace.id, t.trace.steps.length]);

describe('stdin', () => {
  it('keeps a trace whole when its records fit in the window of open traces', async () => {
    const ids = ['a', 'b', 'a', 'b', 'a'];
    const { traces, stats } = await loadTraces('-', {
      stdin: stdinOf(ids.map(record).join('\n')),
      maxOpenTraces: 2,
    });
    // In the order their last record was read, as from a file.
    expect(shape(traces)).toEqual([
      ['b', 2],
      ['a', 3],
    ]);
    expect(stats.notes).toEqual([]);
    expect(traces[1]!.source).toMatchObject({ file: '<stdin>', format: 'records', line: 1 });
  });

  it('closes the least recently appended trace early when the window is full, and notes the split', async () => {
    // a, then b, c, d open: with room for 2, a is closed at d; its record on line 5 starts another a.
    const ids = ['a', 'b', 'c', 'd', 'a'];
    const { traces, stats } = await loadTraces('-', {
      stdin: stdinOf(ids.map(record).join('\n')),
      maxOpenTraces: 2,
    });
    expect(traces.map((t) => t.trace.id).sort()).toEqual(['a', 'a', 'b', 'c', 'd']);
    expect(traces.reduce((n, t) => n + t.trace.steps.length, 0)).toBe(5);
    expect(stats.notes).toEqual([
      '<stdin>: trace a was closed early at line 1: the input is a pipe and its records are not contiguous (at most 2 traces are held open while reading a pipe); its records from line 5 on form another trace. Save the input to a file to have every trace read whole.',
    ]);
  });

  it('reports a bad line with its number and reads the good ones beside it', async () => {
    const { traces, stats } = await loadTraces('-', {
      stdin: stdinOf(`${record('a', 0)}\n{"traceId": oops\n${record('a', 2)}\n`),
    });
    expect(shape(traces)).toEqual([['a', 2]]);
    expect(stats.errors).toEqual([
      { file: '<stdin>', line: 2, message: expect.stringMatching(/^not valid JSON/) as string },
    ]);
  });

  it('refuses a pretty-printed document with what to do instead, and still reads the files given', async () => {
    const d = mkdtempSync(path.join(tmpdir(), 'tj-stdin-'));
    writeFileSync(path.join(d, 'good.jsonl'), `${record('f', 0)}\n`);
    const { traces, stats } = await loadTraces([path.join(d, 'good.jsonl'), '-'], {
      stdin: stdinOf(`[\n  ${record('a', 0)}\n]\n`),
    });
    expect(shape(traces)).toEqual([['f', 1]]);
    expect(stats.errors).toEqual([
      {
        file: '<stdin>',
        line: 1,
        message:
          "a pretty-printed JSON document cannot be read from a pipe (it would be held whole); save it to a file and analyse that, or pipe JSONL (one record per line, e.g. jq -c '.[]')",
      },
    ]);
    expect(stats.files).toBe(2);
  });

  it('reports empty input', async () => {
    const { traces, stats } = await loadTraces('-', { stdin: stdinOf('\n  \n') });
    expect(traces).toEqual([]);
    expect(stats.errors).toEqual([
      { file: '<stdin>', message: 'no records: the input is empty or holds only whitespace' },
    ]);
  });

  it('is read by the CLI as `analyze -`', () => {
    const cli = path.join(__dirname, '..', '..', 'src', 'cli', 'bin.ts');
    const d = mkdtempSync(path.join(tmpdir(), 'tj-stdin-cli-'));
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', cli, 'analyze', '-', '--format', 'json', '--no-progress', '--state-dir', d],
      {
        input: ['a', 'b', 'a'].map(record).join('\n'),
        encoding: 'utf8',
      },
    );
    const report = JSON.parse(out) as { inputs: { traces: number; records: number; formats: object } };
    expect(report.inputs).toMatchObject({ traces: 2, records: 3, formats: { records: 1 } });
  });
});

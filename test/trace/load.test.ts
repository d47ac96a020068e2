import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTraces, type LoadProgress } from '../../src/trace/load.js';

function dir(files: Record<string, string | Buffer>): string {
  const d = mkdtempSync(path.join(tmpdir(), 'tj-load-'));
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(d, name), body);
  return d;
}

const trace = (id: string, extra: object = {}) =>
  JSON.stringify({
    id,
    steps: [{ type: 'llm', model: 'gpt-4o', usage: { inputTokens: 1000, outputTokens: 100 } }],
    ...extra,
  });

describe('loadTraces', () => {
  it('reads native JSONL line by line, prices LLM steps from the price table, and names the source', async () => {
    const d = dir({ 'a.jsonl': `${trace('t1')}\n${trace('t2')}\n` });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['t1', 't2']);
    expect(traces[1]!.source).toMatchObject({ file: path.join(d, 'a.jsonl'), format: 'native', line: 2 });
    const step = traces[0]!.trace.steps[0]!;
    expect(step.type === 'llm' && step.costUsd).toBeCloseTo(1000 * 2.5e-6 + 100 * 10e-6, 10);
    expect(step.type === 'llm' && step.costSource).toBe('price-table');
    expect(stats).toMatchObject({ files: 1, traces: 2, records: 2, errorCount: 0, formats: { native: 1 } });
  });

  it('lists an importer warning among the notes with file, line and field, never as an input error', async () => {
    const call = { id: 'c1', function: { name: 'get_weather', arguments: '{"city":"SF"}' } };
    const transcript = (messages: object[]) => JSON.stringify({ messages });
    const d = dir({
      'chats.jsonl': [
        transcript([
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ]),
        transcript([
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: '', tool_calls: [call] },
          { role: 'tool', tool_call_id: 'c1', content: '21 °C' },
          { role: 'tool', content: 'orphan' },
        ]),
      ].join('\n'),
      // A whole document: the line is the element's.
      'runs.json': `[\n${transcript([{ role: 'user', content: 'x' }])},\n${transcript([{ role: 'tool', content: 'orphan' }])}\n]`,
    });
    const { traces, stats } = await loadTraces(d);
    expect(traces).toHaveLength(4);
    expect(stats.errorCount).toBe(0);
    const warning = 'a tool result with no tool_call_id answers no unanswered tool call';
    expect(stats.notes).toEqual([
      expect.stringContaining(`${path.join(d, 'chats.jsonl')}:2: messages[3]: ${warning}`),
      expect.stringContaining(`${path.join(d, 'runs.json')}:3: [1].messages[0]: ${warning}`),
    ]);
  });

  it('keeps a recorded cost instead of pricing it', async () => {
    const d = dir({
      'a.jsonl': JSON.stringify({
        id: 't',
        steps: [{ type: 'llm', model: 'gpt-4o', costUsd: 0.5, usage: { inputTokens: 1, outputTokens: 1 } }],
      }),
    });
    const { traces } = await loadTraces(d);
    expect(traces[0]!.trace.steps[0]).toMatchObject({ costUsd: 0.5, costSource: 'recorded' });
  });

  it('names an unknown model instead of pricing it at zero', async () => {
    const d = dir({ 'a.jsonl': JSON.stringify({ id: 't', steps: [{ type: 'llm', model: 'acme-llm-9' }] }) });
    const { traces } = await loadTraces(d);
    expect(traces[0]!.trace.steps[0]).toMatchObject({ costSource: 'unknown' });
    expect((traces[0]!.trace.steps[0] as { costUsd?: number }).costUsd).toBeUndefined();
  });

  it('reports a truncated line and a wrong type by file:line:field and keeps the good records', async () => {
    const d = dir({
      'a.jsonl': [
        trace('good-1'),
        '{"id":"cut","steps":[{"type":"ll',
        JSON.stringify({
          id: 'typed',
          steps: [{ type: 'llm', model: 'gpt-4o', usage: { inputTokens: 'many' } }],
        }),
        trace('good-2'),
      ].join('\n'),
    });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['good-1', 'good-2']);
    expect(stats.errorCount).toBe(2);
    expect(stats.errors[0]).toMatchObject({ file: path.join(d, 'a.jsonl'), line: 2 });
    expect(stats.errors[0]!.message).toMatch(/not valid JSON/);
    expect(stats.errors[1]).toMatchObject({ line: 3, field: 'steps[0].usage.inputTokens' });
    expect(stats.errors[1]!.message).toMatch(/^trace typed: .*number/);
  });

  it('reads JSONL whose first line is broken, naming that line', async () => {
    const d = dir({ 'a.jsonl': `{"id": "x", "steps": [\n${trace('ok')}\n` });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['ok']);
    expect(stats.errors).toEqual([
      expect.objectContaining({ line: 1, message: expect.stringMatching(/not valid JSON/) }),
    ]);
  });

  it('names the line where a pretty-printed document breaks', async () => {
    const d = dir({ 'doc.json': '[\n  {\n    "id": "a",\n    "steps": [\n  }\n]\n' });
    const { traces, stats } = await loadTraces(d);
    expect(traces).toEqual([]);
    expect(stats.errors).toEqual([
      expect.objectContaining({
        file: path.join(d, 'doc.json'),
        line: 5,
        message: expect.stringMatching(/not valid JSON/),
      }),
    ]);
  });

  it('parses a pretty-printed JSON document whole', async () => {
    const d = dir({ 'a.json': JSON.stringify([JSON.parse(trace('p1')), JSON.parse(trace('p2'))], null, 2) });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['p1', 'p2']);
    expect(stats.errorCount).toBe(0);
  });

  it('says an empty file and a binary file are not traces, and still reads the file beside them', async () => {
    const d = dir({
      'empty.jsonl': '',
      'blob.json': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01]),
      'good.jsonl': trace('g'),
    });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['g']);
    const messages = stats.errors.map((e) => `${path.basename(e.file)}: ${e.message}`);
    expect(messages).toContain('empty.jsonl: empty file: no records to read');
    expect(messages).toContain('blob.json: binary file, not a trace file (expected JSON or JSONL text)');
  });

  it('says which formats were tried for JSON that is no trace format', async () => {
    const d = dir({ 'cfg.json': JSON.stringify({ name: 'my-app', dependencies: {} }) });
    const { traces, stats } = await loadTraces(d);
    expect(traces).toEqual([]);
    expect(stats.errors[0]!.message).toMatch(
      /not a trace file.*native, otel, openinference, langfuse, records, openai-messages/,
    );
  });

  it('survives a single 50 MB line', async () => {
    const big = JSON.stringify({
      id: 'big',
      steps: [{ type: 'tool', name: 'dump', result: 'x'.repeat(50 * 1024 * 1024) }],
    });
    const d = dir({ 'big.jsonl': `${big}\n${trace('after')}\n` });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['big', 'after']);
    expect(stats.errorCount).toBe(0);
  });

  it('keeps order and line numbers across read buffers, with CRLF and blank lines', async () => {
    // ~3 MB: the reader takes 1 MB at a time, so lines fall across buffer boundaries.
    const pad = 'p'.repeat(1000);
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      if (i === 1500) lines.push('{"id": "broken", ');
      else if (i % 700 === 0) lines.push('');
      else lines.push(trace(`t${i}`, { input: pad }));
    }
    const d = dir({ 'many.jsonl': lines.join('\r\n') });
    const { traces, stats } = await loadTraces(d);
    const expected = lines.flatMap((l) => (l.startsWith('{"id":"t') ? [JSON.parse(l).id] : []));
    expect(traces.map((t) => t.trace.id)).toEqual(expected);
    expect(traces.map((t) => t.source.line)).toEqual(
      lines.flatMap((l, i) => (l.startsWith('{"id":"t') ? [i + 1] : [])),
    );
    expect(stats.errors).toEqual([
      { file: path.join(d, 'many.jsonl'), line: 1501, message: expect.stringMatching(/^not valid JSON/) },
    ]);
  });

  it('keeps the same trace id from two files apart, each with its file', async () => {
    const d = dir({ 'a.jsonl': trace('same'), 'b.jsonl': trace('same') });
    const { traces } = await loadTraces(d);
    expect(traces.map((t) => path.basename(t.source.file))).toEqual(['a.jsonl', 'b.jsonl']);
  });

  it('fails with a usage error for a path that does not exist', async () => {
    await expect(loadTraces('/nonexistent/tracejury-input')).rejects.toThrow(/no such file or directory/);
  });

  it('reads a pretty-printed document saved with a byte order mark', async () => {
    const doc = JSON.stringify([JSON.parse(trace('b1')), JSON.parse(trace('b2'))], null, 2);
    const d = dir({ 'bom.json': `\ufeff${doc}\n` });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['b1', 'b2']);
    expect(stats.errorCount).toBe(0);
  });

  it('keeps a JSON syntax error on one line, without the raw newlines or escapes of the input', async () => {
    const d = dir({
      'doc.json': `[\n  ${trace('ok')},\n  x\n]\n`,
      'esc.jsonl': `${trace('fine')}\n\u001b[31mred\n`,
    });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['fine']);
    expect(stats.errors.map((e) => [path.basename(e.file), e.line])).toEqual([
      ['doc.json', 3],
      ['esc.jsonl', 2],
    ]);
    for (const e of stats.errors) {
      expect(e.message).toMatch(/^not valid JSON \(/);
      expect(e.message).not.toMatch(/[\u0000-\u001f\u007f]/);
    }
    expect(stats.errors[1]!.message).toContain('\\u001b');
  });

  it('says a file holding only whitespace has no records, and a directory with no trace files which files it looked for', async () => {
    const d = dir({ 'blank.jsonl': '  \n\r\n\t\n' });
    const empty = path.join(d, 'notes');
    mkdirSync(empty);
    writeFileSync(path.join(empty, 'notes.txt'), 'todo\n');
    const { traces, stats } = await loadTraces([path.join(d, 'blank.jsonl'), empty]);
    expect(traces).toEqual([]);
    expect(stats.errors).toEqual([
      {
        file: empty,
        message: expect.stringMatching(/^no trace files found \(looked for \*\.json, \*\.jsonl, \*\.ndjson/),
      },
      { file: path.join(d, 'blank.jsonl'), message: 'no records: the file holds only whitespace' },
    ]);
  });

  it('reports a named pipe and a symlink loop among the inputs and still reads the good file', async () => {
    const d = dir({ 'good.jsonl': trace('g') });
    execFileSync('mkfifo', [path.join(d, 'pipe.jsonl')]);
    symlinkSync('loop-b.jsonl', path.join(d, 'loop-a.jsonl'));
    symlinkSync('loop-a.jsonl', path.join(d, 'loop-b.jsonl'));
    const { traces, stats } = await loadTraces([d, path.join(d, 'loop-a.jsonl')]);
    expect(traces.map((t) => t.trace.id)).toEqual(['g']);
    const messages = stats.errors.map((e) => `${path.basename(e.file)}: ${e.message}`);
    expect(messages).toEqual([
      expect.stringMatching(
        /^loop-a\.jsonl: cannot read: too many levels of symbolic links \(a symlink loop\)/,
      ),
      expect.stringMatching(/^loop-b\.jsonl: cannot read: too many levels of symbolic links/),
      expect.stringMatching(/^pipe\.jsonl: not a regular file \(a named pipe\)/),
      // Given explicitly: an input error like the others, not a usage error that stops the run.
      expect.stringMatching(/^loop-a\.jsonl: cannot read: too many levels of symbolic links/),
    ]);
  });

  it('reports progress up to the whole size for a pretty-printed document larger than one read buffer', async () => {
    const big = Array.from({ length: 400 }, (_, i) => ({ id: `t${i}`, input: 'x'.repeat(4_000), steps: [] }));
    const d = dir({ 'export.json': JSON.stringify(big, null, 2) });
    const seen: LoadProgress[] = [];
    const { traces } = await loadTraces(d, { onProgress: (p) => seen.push({ ...p }) });
    expect(traces).toHaveLength(400);
    const last = seen[seen.length - 1]!;
    expect(last.bytesTotal).toBeGreaterThan(1 << 20);
    expect(last.bytesRead).toBe(last.bytesTotal);
  });

  it('reads a file once when a symlink beside it, or a second path, names it too', async () => {
    const d = dir({ 'a.jsonl': trace('a') });
    symlinkSync('a.jsonl', path.join(d, 'b.jsonl'));
    const { traces, stats } = await loadTraces([d, path.join(d, 'b.jsonl')]);
    expect(traces.map((t) => [t.trace.id, path.basename(t.source.file)])).toEqual([['a', 'a.jsonl']]);
    expect(stats.files).toBe(1);
  });

  it('reads the traces after more unrecognised leading records than detection holds, naming each skipped line', async () => {
    const junk = Array.from({ length: 50 }, () => '{"garbage": true}');
    const d = dir({
      'late.jsonl': [...junk, trace('late-1'), trace('late-2')].join('\n'),
      'never.jsonl': junk.join('\n'),
    });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['late-1', 'late-2']);
    const late = stats.errors.filter((e) => e.file.endsWith('late.jsonl'));
    // The first records are held and read as native, so each is named; the rest are one range.
    expect(late.slice(0, 20).map((e) => e.line)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(late[20]).toMatchObject({
      line: 21,
      message: expect.stringMatching(/^30 more records \(lines 21–50\) match none/),
    });
    expect(late[20]!.message).toMatch(/read as native from line 51$/);
    expect(late).toHaveLength(21);
    // A file in which nothing ever matches is still one error, not one per line.
    expect(stats.errors.filter((e) => e.file.endsWith('never.jsonl'))).toEqual([
      expect.objectContaining({ line: 1, message: expect.stringMatching(/^not a trace file/) }),
    ]);
  });

  it('names the line where a bad element of a pretty-printed array starts', async () => {
    const good = JSON.parse(trace('good')) as object;
    const bad = { id: 'bad', steps: [{ type: 'tool', name: 'x', status: 'nope' }] };
    const text = JSON.stringify([good, bad, 'not a trace'], null, 2);
    const lines = text.split('\n');
    // 1-based line of the `{` above a key: the 0-based index of the key's line.
    const startOf = (needle: string) => lines.findIndex((l) => l.includes(needle));
    const d = dir({ 'pretty.json': text });
    const { traces, stats } = await loadTraces(d);
    expect(traces.map((t) => t.trace.id)).toEqual(['good']);
    expect(stats.errors).toEqual([
      expect.objectContaining({ line: startOf('"not a trace"') + 1, field: '[2]' }),
      expect.objectContaining({ line: startOf('"id": "bad"'), field: 'steps[0].status' }),
    ]);
  });
});

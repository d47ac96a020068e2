/**
 * The output writer's formats are data: the --out extension picks a format only when that format
 * exists, and --format's help and error list exactly the formats there are.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatOfFile, formatOption, OUTPUT_FORMATS, openOutput } from '../../src/cli/output.js';

function io(cwd: string) {
  let stdout = '';
  return {
    io: { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: () => true }, cwd, env: {} },
    stdout: () => stdout,
  };
}

describe('output formats', () => {
  it('picks the format from an --out extension that a format claims, else text', () => {
    expect(formatOfFile('r.json')).toBe('json');
    expect(formatOfFile('r.MD')).toBe('markdown');
    expect(formatOfFile('r.markdown')).toBe('markdown');
    expect(formatOfFile('r.txt')).toBe('text');
    expect(formatOfFile('r.html')).toBe('html');
    expect(formatOfFile('r.htm')).toBe('html');
    // An extension no format claims is not guessed.
    expect(
      Object.values(OUTPUT_FORMATS).some((f) => (f.extensions as readonly string[]).includes('.log')),
    ).toBe(false);
    expect(formatOfFile('r.log')).toBe('text');
  });

  it('lists the formats there are in --format help and its error, the default first', () => {
    const merge = formatOption('json');
    expect(merge.description).toBe(
      "json | text | markdown | html (default: json, or from --out's extension)",
    );
    expect(() => merge.parse('yaml')).toThrow('--format yaml: expected text, json, markdown or html');
  });
});

describe('openOutput', () => {
  it('writes pieces to --out and the summary to stdout, or the pieces to stdout', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tj-output-'));
    const toFile = io(dir);
    const out = openOutput({ out: 'sub/r.md' }, toFile.io, { defaultFormat: 'text', what: 'the report' });
    expect(out.format).toBe('markdown');
    out.write(['a', 'b'], (given) => `wrote ${given}\n`);
    expect(readFileSync(path.join(dir, 'sub/r.md'), 'utf8')).toBe('ab');
    expect(toFile.stdout()).toBe('wrote sub/r.md\n');

    const toStdout = io(dir);
    const plain = openOutput({}, toStdout.io, { defaultFormat: 'json', what: 'the report' });
    expect(plain.format).toBe('json');
    plain.write(['a', 'b'], () => 'never\n');
    expect(toStdout.stdout()).toBe('ab');
  });

  it('fails before any work when --out cannot be written, naming --out', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tj-output-'));
    expect(() => openOutput({ out: '.' }, io(dir).io, { defaultFormat: 'text', what: 'the report' })).toThrow(
      '--out .: cannot write the report there:',
    );
  });
});

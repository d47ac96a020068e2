/**
 * Files and directories the user running tracejury may not read. Tests run as root in CI, where
 * chmod 000 does not stop a read, so node:fs/promises answers EACCES for the paths in `denied`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTraces } from '../../src/trace/load.js';

const denied = new Set<string>();

function eacces(syscall: string, p: unknown): Error {
  return Object.assign(new Error(`EACCES: permission denied, ${syscall} '${String(p)}'`), {
    errno: -13,
    code: 'EACCES',
    syscall,
    path: String(p),
  });
}

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    open: ((p, ...rest) =>
      denied.has(String(p))
        ? Promise.reject(eacces('open', p))
        : actual.open(p, ...rest)) as typeof actual.open,
    readdir: ((p, ...rest) =>
      denied.has(String(p))
        ? Promise.reject(eacces('scandir', p))
        : (actual.readdir as (...a: unknown[]) => Promise<unknown>)(p, ...rest)) as typeof actual.readdir,
  };
});

afterEach(() => denied.clear());

const trace = (id: string) =>
  JSON.stringify({
    id,
    steps: [{ type: 'llm', model: 'gpt-4o', usage: { inputTokens: 1, outputTokens: 1 } }],
  });

describe('loadTraces with unreadable inputs', () => {
  it('reports an unreadable file and an unreadable subdirectory by path and reads the rest', async () => {
    const d = mkdtempSync(path.join(tmpdir(), 'tj-unreadable-'));
    writeFileSync(path.join(d, 'a.jsonl'), trace('a'));
    writeFileSync(path.join(d, 'z.jsonl'), trace('z'));
    mkdirSync(path.join(d, 'locked'));
    writeFileSync(path.join(d, 'locked', 'in.jsonl'), trace('hidden'));
    denied.add(path.join(d, 'z.jsonl'));
    denied.add(path.join(d, 'locked'));

    const { traces, stats } = await loadTraces(d);

    expect(traces.map((t) => t.trace.id)).toEqual(['a']);
    expect(stats.errorCount).toBe(2);
    expect(stats.errors).toEqual([
      {
        file: path.join(d, 'locked'),
        message: expect.stringMatching(/^cannot list this directory: permission denied; make it readable/),
      },
      { file: path.join(d, 'z.jsonl'), message: expect.stringMatching(/^cannot read: permission denied/) },
    ]);
    expect(stats.files).toBe(2);
  });
});

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withBaselineLock } from '../../src/baseline/store.js';

const dir = () => mkdtempSync(path.join(tmpdir(), 'tj-lock-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('withBaselineLock', () => {
  it('serializes read-modify-write, so concurrent updates keep each other’s data', async () => {
    const file = path.join(dir(), 'baselines.json');
    writeFileSync(file, '[]');
    const add = (name: string) =>
      withBaselineLock(file, async () => {
        const list = JSON.parse(readFileSync(file, 'utf8')) as string[];
        await sleep(30);
        writeFileSync(file, JSON.stringify([...list, name]));
      });
    await Promise.all([add('a'), add('b'), add('c')]);
    expect((JSON.parse(readFileSync(file, 'utf8')) as string[]).sort()).toEqual(['a', 'b', 'c']);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('releases the lock when the update throws', async () => {
    const file = path.join(dir(), 'baselines.json');
    await expect(withBaselineLock(file, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('gives up after the timeout, naming the lock file to delete', async () => {
    const file = path.join(dir(), 'baselines.json');
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, host: hostname() }));
    await expect(withBaselineLock(file, () => 1, { timeoutMs: 100 })).rejects.toThrow(
      `${file}.lock: another \`tracejury baseline update\` is running, or a stale lock: if none is running, delete ${file}.lock`,
    );
    expect(existsSync(`${file}.lock`)).toBe(true);
  });

  it('takes over a lock whose process is gone', async () => {
    const file = path.join(dir(), 'baselines.json');
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: deadPid, host: hostname() }));
    expect(await withBaselineLock(file, () => 'ran', { timeoutMs: 100 })).toBe('ran');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('takes over a lock older than the stale age', async () => {
    const file = path.join(dir(), 'baselines.json');
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, host: hostname() }));
    const old = new Date(Date.now() - 11 * 60_000);
    utimesSync(`${file}.lock`, old, old);
    expect(await withBaselineLock(file, () => 'ran', { timeoutMs: 100 })).toBe('ran');
  });
});

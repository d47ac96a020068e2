/**
 * Inputs as the bench generates them (bench/traces.mjs: sessions, text-heavy prompts and results,
 * concurrent runs interleaved, a few percent of faults), small, in a temporary directory: the
 * tests that check a faster path against the one it replaced read what users run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FORMATS, generate, type BenchFormat } from '../../bench/traces.mjs';

export { FORMATS as BENCH_FORMATS, type BenchFormat };

export interface BenchInputs {
  dir: string;
  /** The file of each format, relative to `dir`. */
  files: Record<BenchFormat, string>;
  remove(): void;
}

/** Writes about `bytes` of every bench format (the same bytes on every run). */
export async function benchInputs(bytes: number): Promise<BenchInputs> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-bench-'));
  const files = {} as Record<BenchFormat, string>;
  for (const format of FORMATS) {
    files[format] = `${format}.jsonl`;
    await generate(format, path.join(dir, files[format]), bytes);
  }
  return { dir, files, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// Types of traces.mjs for the tests that generate bench inputs (test/helpers/benchInputs.ts).
export type BenchFormat = 'native' | 'records' | 'otel' | 'langfuse';
export const FORMATS: BenchFormat[];
/** Writes about `bytes` of `format` to `file`; returns the number of runs written. */
export function generate(format: BenchFormat, file: string, bytes: number): Promise<number>;
/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number;
/** About `words` words of prose. */
export function prose(r: () => number, words: number): string;

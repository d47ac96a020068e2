// Types of traces.mjs for the tests that generate bench inputs (test/helpers/benchInputs.ts).
export type BenchFormat = 'native' | 'records' | 'otel' | 'langfuse';
export const FORMATS: BenchFormat[];
/** How much text a run carries: `large` (~32 KB a native trace) or `small` (~5 KB). */
export type BenchShape = 'large' | 'small';
export const SHAPES: BenchShape[];
/** A format in a shape: `native` (large runs) or `native-small` (many short runs), … */
export type ShapedBenchFormat = BenchFormat | `${BenchFormat}-small`;
export const SHAPED_FORMATS: ShapedBenchFormat[];
/** Writes about `bytes` of `format` to `file`; returns the number of runs written. */
export function generate(format: ShapedBenchFormat, file: string, bytes: number): Promise<number>;
/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number;
/** About `words` words of prose. */
export function prose(r: () => number, words: number): string;

import type { analyze } from '../src/analyze.js';
import type { Report } from '../src/report/schema.js';

/** The examples' base and head reports (see examples-diff.mjs). */
export function examplesReports(analyzeFn: typeof analyze): Promise<{ base: Report; head: Report }>;

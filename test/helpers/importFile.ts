/** Reads a fixture with one importer the way the loader does: JSONL line by line, or a whole JSON document (line 1). */
import { readFileSync } from 'node:fs';
import type { ImportProblem, Importer } from '../../src/trace/importer.js';
import { TraceSchema, type Trace } from '../../src/trace/schema.js';

export function importFile(
  importer: Importer,
  file: string,
  mode: 'auto' | 'jsonl' | 'document' = 'auto',
): { traces: { trace: Trace; line?: number }[]; problems: ImportProblem[] } {
  const problems: ImportProblem[] = [];
  const reader = importer.createReader({ problem: (p) => problems.push(p) });
  const text = readFileSync(file, 'utf8');
  const asDocument = mode === 'document' || (mode === 'auto' && file.endsWith('.json'));
  const imported = asDocument
    ? reader.push(JSON.parse(text), 1)
    : text.split('\n').flatMap((l, i) => (l.trim() ? reader.push(JSON.parse(l), i + 1) : []));
  imported.push(...reader.end());
  return { traces: imported.map((t) => ({ trace: TraceSchema.parse(t.trace), line: t.line })), problems };
}

import { escapeJsonText } from '../redact/jsonText.js';
import type { Report } from './schema.js';
import { spilledListsOf } from './spilledReport.js';

/**
 * A report as JSON, `JSON.stringify(report, null, 2)` with its raw control and bidi characters
 * escaped (escapeJsonText: valid JSON on any stream, the same value to any reader), in pieces of about CHUNK
 * characters: a run over a gigabyte of traces has a report of tens of megabytes, and one string of
 * it (plus the one JSON.stringify builds on the way) would double the run's peak memory for the
 * last moment of the run. The large arrays (traces, signals, errors) are written element by element,
 * and a report whose traces and signals were spilled to temporary files (spilledReport.ts) has them
 * read back from there, one at a time, in their place.
 */
const CHUNK = 1 << 20;

/** The text JSON.stringify(…, null, 2) writes around a value wrapped in `depth` objects `{ "a": … }`. */
const wrappers: { prefix: number; suffix: number }[] = [];
function wrapperAt(depth: number): { prefix: number; suffix: number } {
  let w = wrappers[depth];
  if (!w) {
    let prefix = 0;
    let suffix = 0;
    for (let level = 0; level < depth; level++) {
      prefix += '{\n'.length + 2 * (level + 1) + '"a": '.length;
      suffix += '\n'.length + 2 * level + '}'.length;
    }
    wrappers[depth] = w = { prefix, suffix };
  }
  return w;
}

/**
 * `value` as JSON.stringify(value, null, 2) writes it at nesting `depth` (0 for the top; the value
 * is neither undefined nor a function). Wrapped in `depth` one-key objects, the value comes out
 * indented for its place, and the wrapper's own text is cut off: the same characters as indenting
 * every line afterwards, without copying the text again.
 */
function nested(value: unknown, depth: number): string {
  if (depth === 0) return JSON.stringify(value, null, 2);
  let wrapped = value;
  for (let level = 0; level < depth; level++) wrapped = { a: wrapped };
  const text = JSON.stringify(wrapped, null, 2);
  const { prefix, suffix } = wrapperAt(depth);
  return text.slice(prefix, text.length - suffix);
}

/** An array's elements (a held array or one read back from a file), as JSON.stringify writes them. */
function* arrayPieces(values: Iterable<unknown>, depth: number): Generator<string> {
  const pad = '  '.repeat(depth + 1);
  let i = 0;
  for (const value of values) {
    const v = value === undefined || typeof value === 'function' ? null : value;
    yield `${i === 0 ? '[' : ','}\n${pad}${nested(v, depth + 1)}`;
    i++;
  }
  yield i === 0 ? '[]' : `\n${'  '.repeat(depth)}]`;
}

function* pieces(
  value: unknown,
  depth: number,
  spilled?: ReturnType<typeof spilledListsOf>,
): Generator<string> {
  const pad = '  '.repeat(depth + 1);
  if (Array.isArray(value)) {
    // A sparse array's holes are undefined, written as null: read by index, not by iterator.
    yield* arrayPieces(
      (function* () {
        for (let i = 0; i < value.length; i++) yield value[i];
      })(),
      depth,
    );
    return;
  }
  if (typeof value === 'object' && value !== null && !('toJSON' in value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function');
    if (entries.length === 0) {
      yield '{}';
      return;
    }
    yield '{';
    for (const [i, [key, v]] of entries.entries()) {
      yield `${i === 0 ? '' : ','}\n${pad}${JSON.stringify(key)}: `;
      // Only the top level and its arrays are split; anything deeper is small.
      if (depth === 0 && spilled && (key === 'traces' || key === 'signals' || key === 'review'))
        yield* arrayPieces(spilled[key].values(), depth + 1);
      else if (depth === 0) yield* pieces(v, depth + 1);
      else yield nested(v, depth + 1);
    }
    yield `\n${'  '.repeat(depth)}}`;
    return;
  }
  yield nested(value, depth);
}

/** The report's JSON (with a final newline) in pieces of about a megabyte. */
export function* reportJsonChunks(report: object): Generator<string> {
  let buffer = '';
  for (const piece of pieces(report, 0, spilledListsOf(report as Report))) {
    buffer += piece;
    if (buffer.length >= CHUNK) {
      yield escapeJsonText(buffer);
      buffer = '';
    }
  }
  yield `${escapeJsonText(buffer)}\n`;
}

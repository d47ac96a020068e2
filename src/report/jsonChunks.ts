import { escapeJsonText } from '../redact/jsonText.js';
import { jsonAtDepth } from './jsonAtDepth.js';
import type { Report } from './schema.js';
import { spilledListsOf } from './spilledReport.js';

/**
 * A report as JSON, `JSON.stringify(report, null, 2)` with its raw control and bidi characters
 * escaped (escapeJsonText: valid JSON on any stream, the same value to any reader), in pieces of about CHUNK
 * characters: a run over a gigabyte of traces has a report of tens of megabytes, and one string of
 * it (plus the one JSON.stringify builds on the way) would double the run's peak memory for the
 * last moment of the run. The large arrays (traces, signals, errors) are written element by element,
 * and a report whose lists were spilled to temporary files (spilledReport.ts) has them read back
 * from there, one at a time, in their place.
 */
/**
 * 32 K characters: a string over 128 KB (64 K characters of a two-byte string) goes to V8's
 * large-object space, which only a full collection frees; a gigabyte's report of 465 MB written in
 * 1 MB pieces left hundreds of them waiting, and the run's peak RSS was its last seconds, 60–90 MB
 * over the rest of the run. Pieces this size die young, in a scavenge.
 */
const CHUNK = 1 << 15;

/**
 * An array, given the text of each element as JSON.stringify writes it at `depth + 1`: a held
 * array's elements stringified one at a time, or a spilled list's texts as its file holds them
 * (topLevelElementJson), copied rather than parsed and written again.
 */
function* arrayPieces(elementTexts: Iterable<string>, depth: number): Generator<string> {
  const pad = '  '.repeat(depth + 1);
  let i = 0;
  for (const text of elementTexts) {
    yield `${i === 0 ? '[' : ','}\n${pad}${text}`;
    i++;
  }
  yield i === 0 ? '[]' : `\n${'  '.repeat(depth)}]`;
}

/** A held array's elements as JSON.stringify writes them at `depth` (a hole or undefined as null). */
function* heldElementTexts(array: readonly unknown[], depth: number): Generator<string> {
  // A sparse array's holes are undefined, written as null: read by index, not by iterator.
  for (let i = 0; i < array.length; i++) {
    const value = array[i];
    yield jsonAtDepth(value === undefined || typeof value === 'function' ? null : value, depth);
  }
}

function* pieces(
  value: unknown,
  depth: number,
  spilled?: ReturnType<typeof spilledListsOf>,
): Generator<string> {
  const pad = '  '.repeat(depth + 1);
  if (Array.isArray(value)) {
    yield* arrayPieces(heldElementTexts(value, depth + 1), depth);
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
      if (
        depth === 0 &&
        spilled &&
        (key === 'traces' || key === 'signals' || key === 'review' || key === 'sessions')
      )
        // Their files hold each element as its text at this depth (topLevelElementJson).
        yield* arrayPieces(spilled[key].texts(), depth + 1);
      else if (depth === 0) yield* pieces(v, depth + 1);
      else yield jsonAtDepth(v, depth + 1);
    }
    yield `\n${'  '.repeat(depth)}}`;
    return;
  }
  yield jsonAtDepth(value, depth);
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

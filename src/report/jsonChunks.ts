/**
 * A report as JSON, `JSON.stringify(report, null, 2)` byte for byte, in pieces of about CHUNK
 * characters: a run over a gigabyte of traces has a report of tens of megabytes, and one string of
 * it (plus the one JSON.stringify builds on the way) would double the run's peak memory for the
 * last moment of the run. The large arrays (traces, signals, errors) are written element by element.
 */
const CHUNK = 1 << 20;

/** `value` as JSON.stringify(value, null, 2) writes it at nesting `depth` (0 for the top). */
function nested(value: unknown, depth: number): string {
  const text = JSON.stringify(value, null, 2);
  // JSON text has no raw newline inside strings (they are escaped), so every newline starts a line.
  return depth === 0 ? text : text.replace(/\n/g, `\n${'  '.repeat(depth)}`);
}

function* pieces(value: unknown, depth: number): Generator<string> {
  const pad = '  '.repeat(depth + 1);
  if (Array.isArray(value)) {
    if (value.length === 0) {
      yield '[]';
      return;
    }
    yield '[';
    for (let i = 0; i < value.length; i++) {
      const v = value[i] === undefined || typeof value[i] === 'function' ? null : value[i];
      yield `${i === 0 ? '' : ','}\n${pad}${nested(v, depth + 1)}`;
    }
    yield `\n${'  '.repeat(depth)}]`;
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
      if (depth === 0) yield* pieces(v, depth + 1);
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
  for (const piece of pieces(report, 0)) {
    buffer += piece;
    if (buffer.length >= CHUNK) {
      yield buffer;
      buffer = '';
    }
  }
  yield `${buffer}\n`;
}

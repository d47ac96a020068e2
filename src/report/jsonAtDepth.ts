/**
 * A value as `JSON.stringify(report, null, 2)` writes it where it sits in the report: nested
 * `depth` levels down, every line after the first indented for that place. The report is written
 * in pieces (jsonChunks.ts), and a list kept on disk (spillFile.ts) holds its entries as this text,
 * so writing the report copies them instead of parsing and stringifying each again.
 */

/** The depth of an element of one of the report's top-level arrays (`report.traces[i]`). */
const TOP_LEVEL_ELEMENT_DEPTH = 2;

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
export function jsonAtDepth(value: unknown, depth: number): string {
  if (depth === 0) return JSON.stringify(value, null, 2);
  let wrapped = value;
  for (let level = 0; level < depth; level++) wrapped = { a: wrapped };
  const text = JSON.stringify(wrapped, null, 2);
  const { prefix, suffix } = wrapperAt(depth);
  return text.slice(prefix, text.length - suffix);
}

/** An element of a top-level array of the report, as the report's JSON holds it. */
export const topLevelElementJson = (value: unknown): string => jsonAtDepth(value, TOP_LEVEL_ELEMENT_DEPTH);

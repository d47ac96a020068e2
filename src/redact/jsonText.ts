/**
 * JSON text that reads the same wherever it lands: JSON.stringify escapes only C0 controls, and
 * leaves DEL, the C1 controls, the line and paragraph separators and the bidi controls raw inside
 * strings. Raw, they can drive a terminal, end a line for a JavaScript reader, or make an id read
 * differently; rewritten afterwards by a terminal filter (`\x7f`), they make the JSON invalid. So
 * the serialiser writes each of them as a `\uXXXX` escape, which every JSON reader turns back into
 * the same character: the text holds no control character at all, and needs no filter after it.
 *
 * Outside strings JSON has only ASCII punctuation, digits and words, so rewriting the whole text
 * touches string contents only.
 */

/** DEL, C1, U+200E/F, U+2028/9, U+202A–202E, U+2066–2069: what JSON.stringify leaves raw and a terminal or a reader obeys. */
const RAW_IN_JSON = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `\u` and four hex digits: the one escape every JSON reader knows for any character. */
export const jsonEscape = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** JSON text (from JSON.stringify) with every control and bidi character it left raw escaped. */
export function escapeJsonText(json: string): string {
  return json.replace(RAW_IN_JSON, jsonEscape);
}

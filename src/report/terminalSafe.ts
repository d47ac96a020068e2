/**
 * Trace text printed to a terminal or a CI log is shown, never obeyed. A trace id or an error
 * message can carry `ESC[2J` (clear the screen), colour codes, a carriage return or a newline
 * that draws a fake "Gate: passed" line, or a right-to-left override that makes a line read as
 * something else. Such characters are printed as visible escapes instead.
 */

/**
 * C0 controls (newline and tab too: every field printed is one line), DEL, C1 controls, the line
 * and paragraph separators, and the bidi embedding, override and isolate characters.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  return (
    NAMED[ch] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`)
  );
}

/** `text` with every control and bidi character shown as an escape such as `\x1b` or `\u{202e}`. */
export function terminalSafe(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, visible) : text;
}

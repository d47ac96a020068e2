/**
 * The one path by which text from traces and reports leaves tracejury: redact secrets, then cut
 * to length, then encode for where it goes. Every renderer takes its text through here — the
 * terminal and CI logs (`terminalText`), plain-text surfaces such as check-run annotations
 * (`plainText`), markdown (markdown.ts), HTML (html.ts) and messages that quote a value
 * (`quoted`) — so a secret is gone before any cut can leave half of it, and no encoder sees text
 * longer than it will show.
 *
 * The order matters: a cut through a key leaves a prefix no pattern recognises (redact first),
 * and an escape cut in half is a broken one (cut before encoding).
 */
import { redact, redactLowercased } from './redact.js';

/** Marks text that was cut. */
export const ELLIPSIS = '…';

/** Characters past a cut that are still redacted, so a secret cut in half is recognised whole. */
const REDACT_SLACK = 4096;

/**
 * `text` redacted, then at most `max` characters (the last one `…` when cut). A cut never splits
 * a surrogate pair, so the result is always well-formed text. `lowercased`: the text's case was
 * changed (see redactLowercased).
 */
export function redactAndCut(text: string, max = Infinity, options: { lowercased?: boolean } = {}): string {
  // Only what can be shown is redacted (a 50 MB value is not scanned whole to show 80 characters),
  // with room past the cut for a secret that starts before it; a private key, the longest, is
  // hidden to the end of whatever text it starts in.
  const shown = text.length > max + REDACT_SLACK ? text.slice(0, max + REDACT_SLACK) : text;
  const safe = options.lowercased ? redactLowercased(shown) : redact(shown);
  if (safe.length <= max) return safe;
  let end = Math.max(0, max - 1);
  const last = safe.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return safe.slice(0, end) + ELLIPSIS;
}

/**
 * C0 controls (newline and tab included), DEL, C1 controls, the line and paragraph separators,
 * and the bidi marks, embedding, override and isolate characters: what can move a cursor, clear a
 * screen, start a new log line, or make a line read as something else.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  return (
    NAMED[ch] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`)
  );
}

/** `text` with every control and bidi character shown as an escape such as `\x1b` or `\u{202e}`. */
export function showControls(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, visible) : text;
}

/**
 * A value for a terminal or a CI log: redacted, cut, every control character shown rather than
 * obeyed (the renderer's own colour codes go around it, after). One line, whatever the value.
 */
export function terminalText(value: string, max = Infinity): string {
  return showControls(redactAndCut(value, max));
}

/**
 * A value for a plain-text surface GitHub shows without rendering markdown (a check-run
 * annotation's title and message): the same one-line text as the terminal's, since markup there is
 * shown, not obeyed, and escaping it would show `&lt;` to the reader.
 */
export const plainText: (value: string, max?: number) => string = terminalText;

/** What a detector's message or evidence quotes of an error or a prompt: 120 characters, then "…". */
export const ERROR_QUOTE = 121;

/** How much of a value a message quotes: enough to recognise it, never a whole file. */
export const QUOTE_MAX = 80;

/**
 * A value from data quoted inside a message (an error, a note): redacted, cut to `max` characters
 * and JSON-quoted, so a 50 MB scalar or a value with a newline or ESC in it is shown as a short,
 * visibly delimited string.
 */
export function quoted(value: unknown, max = QUOTE_MAX): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return JSON.stringify(redactAndCut(text, max)).replace(CONTROLS, visible);
}

/**
 * What may open a workflow command on the Actions runner: `::name …::` or the older `##[name …]`,
 * at the start of a line after any whitespace (the runner trims it; it splits lines at \r and \n).
 */
const COMMAND_AT_LINE_START = /(^|[\r\n])((?:[^\S\r\n]|\u0085)*)(::|##\[)/g;
/** A line, so far, of whitespace and the start of an opener, which the next write could complete. */
const PARTIAL_OPENER = /^((?:[^\S\r\n]|\u0085)*)(:|##?)$/;
const BLANK = /^(?:[^\S\r\n]|\u0085)*$/;

/**
 * A writer's output with every line that the runner would read as a workflow command shown as
 * text instead: `::add-mask::x` is written `\::add-mask::x`. Stateful across writes (a command
 * may begin in one write and go on in the next), so make one per stream.
 */
export function commandLineGuard(): (chunk: string) => string {
  let atLineStart = true;
  return (chunk) => {
    let out = chunk.replace(
      COMMAND_AT_LINE_START,
      (m, lineBreak: string, space: string, opener: string, at: number) =>
        at === 0 && lineBreak === '' && !atLineStart ? m : `${lineBreak}${space}\\${opener}`,
    );
    const lastBreak = Math.max(out.lastIndexOf('\n'), out.lastIndexOf('\r'));
    const tail = out.slice(lastBreak + 1);
    const lineStart = lastBreak >= 0 || atLineStart;
    if (lineStart && BLANK.test(tail)) atLineStart = true;
    else {
      // `:` or `##` at the end of a write could become an opener with the next one: escaped now.
      const partial = lineStart ? PARTIAL_OPENER.exec(tail) : null;
      if (partial) out = `${out.slice(0, lastBreak + 1)}${partial[1]}\\${partial[2]}`;
      atLineStart = false;
    }
    return out;
  };
}

/**
 * Output for a terminal or a CI log whose own control sequences are known: SGR colour codes
 * (`ESC[…m`) and the progress line's `\r ESC[2K` pass, every other control character is shown as
 * an escape. What a renderer forgot to make safe cannot reach the terminal raw.
 */
export function terminalOutput(chunk: string): string {
  if (!CONTROL.test(chunk)) return chunk;
  return chunk.replace(
    /\x1b\[[0-9;]*m|\r?\x1b\[2K|[\n\t]|[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (m) => (m.length > 1 || m === '\n' || m === '\t' ? m : visible(m)),
  );
}

/**
 * A stream's `write` made safe for a terminal or the Actions log, once for every command that
 * writes through it: control characters shown (colours excepted) and command lines neutralised.
 */
export function safeWriter<W extends { write(s: string): unknown }>(stream: W): W {
  const guard = commandLineGuard();
  const write = (s: string) => stream.write(guard(terminalOutput(s)));
  return new Proxy(stream, {
    get: (target, prop, receiver) => (prop === 'write' ? write : Reflect.get(target, prop, receiver)),
  });
}

/**
 * One message for a log that starts it on a line of its own (@actions/core's `info`): control
 * characters shown (colours kept) and every line that could be read as a workflow command
 * neutralised.
 */
export function logText(message: string): string {
  return commandLineGuard()(terminalOutput(message));
}

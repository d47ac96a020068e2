/**
 * The sentences of an untrusted text, for reading what each one asks of its reader
 * (readerRequests.ts). One pass over the characters, no regex backtracking: linear in the text.
 *
 * A sentence ends at `.`, `!` or `?` followed by whitespace, at a colon followed by whitespace
 * ("first do this: send …" asks its request after the colon), at a blank line, and at a line break
 * when the next line starts afresh (a capital, a bullet, a quote, a tag) or the line before ended on
 * punctuation; a line break followed by a lowercase word is a wrapped line of the same sentence (YAML
 * and e-mail bodies fold long lines). A code fence (a line starting with ```) is no sentence: it
 * ends the one before, and when that one ends on a colon ("… the following code:") the code up to the
 * next fence is its `block`. Lines inside a fence are still read as sentences — text pasted into a
 * code block is still read by the model — and a line of code is left out by its reader.
 */

export interface Sentence {
  /** Offsets of the sentence in the text: [start, end). */
  start: number;
  end: number;
  /** The fenced code block right after it, [start, end) between its fences, when there is one. */
  block?: { start: number; end: number };
}

/** A sentence longer than this is cut: what a request asks is said in its first few hundred characters. */
export const MAX_SENTENCE_CHARS = 600;

const SPACE = 32;
const NEWLINE = 10;
const COLON = 58;
const BACKTICK = 96;
const isSpace = (c: number) => c === SPACE || (c >= 9 && c <= 13);
const isLower = (c: number) => c >= 97 && c <= 122;
/** `.`, `!`, `?` */
const isStop = (c: number) => c === 46 || c === 33 || c === 63;
/** What a line may end on for the next line to start a new sentence: . ! ? : ; ) ] " ' ” ’ > | */
const ENDS_CLAUSE = new Set([46, 33, 63, 58, 59, 41, 93, 34, 39, 0x201d, 0x2019, 62, 124]);

/** Whether the line starting at `i` is a code fence (```, after optional spaces). */
function fenceAt(text: string, i: number): boolean {
  let j = i;
  while (j < text.length && (text.charCodeAt(j) === SPACE || text.charCodeAt(j) === 9)) j++;
  return (
    text.charCodeAt(j) === BACKTICK &&
    text.charCodeAt(j + 1) === BACKTICK &&
    text.charCodeAt(j + 2) === BACKTICK
  );
}

/** The offset after the line that starts at `i` (after its newline), or the text's length. */
function lineAfter(text: string, i: number): number {
  const nl = text.indexOf('\n', i);
  return nl < 0 ? text.length : nl + 1;
}

/** The sentences of `text`, in order (at most `max`: a flood of one-word lines stops there). */
export function splitSentences(text: string, max = 4000): Sentence[] {
  const out: Sentence[] = [];
  const n = text.length;
  let start = -1;
  let lastNonSpace = -1;
  const close = (end: number) => {
    if (start >= 0 && out.length < max)
      out.push({ start, end: Math.max(start + 1, Math.min(end, lastNonSpace + 1)) });
    start = -1;
  };
  for (let i = 0; i < n && out.length < max; i++) {
    const lineStart = i === 0 || text.charCodeAt(i - 1) === NEWLINE;
    if (lineStart && fenceAt(text, i)) {
      // A fence ends the sentence before it. Right after a sentence that ends on a colon ("… the
      // following code:") it opens that sentence's block, which runs to the next fence. Whether a
      // bare fence opens or closes is not counted: text pasted into a block breaks the count.
      close(i);
      const bodyStart = lineAfter(text, i);
      const owner = out[out.length - 1];
      if (
        owner &&
        owner.block === undefined &&
        text.charCodeAt(owner.end - 1) === COLON &&
        onlySpace(text, owner.end, i)
      ) {
        let closing = bodyStart;
        while (closing < n && !fenceAt(text, closing)) closing = lineAfter(text, closing);
        owner.block = { start: bodyStart, end: Math.min(closing, n) };
      }
      i = bodyStart - 1;
      continue;
    }
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      if (c === NEWLINE && start >= 0) {
        // A blank line ends the sentence; so does a line break before a fresh start.
        let j = i + 1;
        let blank = false;
        while (j < n && isSpace(text.charCodeAt(j))) {
          if (text.charCodeAt(j) === NEWLINE) blank = true;
          j++;
        }
        const next = j < n ? text.charCodeAt(j) : 0;
        if (blank || ENDS_CLAUSE.has(text.charCodeAt(lastNonSpace)) || !isLower(next)) close(i);
      }
      continue;
    }
    if (start < 0) start = i;
    lastNonSpace = i;
    if (isStop(c) || c === COLON) {
      // Runs of stops ("!!!", "?!", "...") end together; the sentence ends when whitespace follows.
      let j = i + 1;
      while (j < n && isStop(text.charCodeAt(j))) j++;
      if (j >= n || isSpace(text.charCodeAt(j))) {
        lastNonSpace = j - 1;
        close(j);
        i = j - 1;
      }
      continue;
    }
    if (i - start >= MAX_SENTENCE_CHARS) close(i + 1);
  }
  close(n);
  return out;
}

/** Whether only whitespace stands between `from` and `to`. */
function onlySpace(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!isSpace(text.charCodeAt(k))) return false;
  return true;
}

/**
 * Where a JSON text first goes wrong, as a 1-based line and column. V8's JSON.parse messages
 * only sometimes carry a position, and a user fixing a 4 MB export needs the line. Used on the
 * error path only: a small recursive-descent checker that stops at the first error.
 */
export interface JsonErrorPosition {
  offset: number;
  line: number;
  column: number;
}

export function jsonErrorPosition(text: string): JsonErrorPosition | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r'))
      i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail();
      if (c === 0x5c) {
        i++;
        const e = text[i];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail();
      } else i++;
    }
    fail();
  };
  const number = () => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
  };
  // Explicit stack instead of recursion: deep documents must not overflow.
  const value = () => {
    const stack: ('object' | 'array')[] = [];
    let expectValue = true;
    for (;;) {
      ws();
      if (expectValue) {
        const c = text[i];
        if (c === '{') {
          i++;
          ws();
          if (text[i] === '}') {
            i++;
            expectValue = false;
          } else {
            if (text[i] !== '"') fail();
            string();
            ws();
            if (text[i] !== ':') fail();
            i++;
            stack.push('object');
            continue;
          }
        } else if (c === '[') {
          i++;
          ws();
          if (text[i] === ']') {
            i++;
            expectValue = false;
          } else {
            stack.push('array');
            continue;
          }
        } else if (c === '"') string();
        else if (c === 't') literal('true');
        else if (c === 'f') literal('false');
        else if (c === 'n') literal('null');
        else number();
        expectValue = false;
      }
      ws();
      const top = stack.at(-1);
      if (top === undefined) return;
      if (text[i] === ',') {
        i++;
        if (top === 'object') {
          ws();
          if (text[i] !== '"') fail();
          string();
          ws();
          if (text[i] !== ':') fail();
          i++;
        }
        expectValue = true;
      } else if ((top === 'object' && text[i] === '}') || (top === 'array' && text[i] === ']')) {
        i++;
        stack.pop();
      } else fail();
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return undefined;
  } catch (at) {
    const offset = typeof at === 'number' ? Math.min(at, text.length) : 0;
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < offset; k++) {
      if (text.charCodeAt(k) === 10) {
        line++;
        lineStart = k + 1;
      }
    }
    return { offset, line, column: offset - lineStart + 1 };
  }
}

/**
 * The 1-based line on which each element of a top-level JSON array starts, or [] when the text is
 * not an array. For errors about one trace of a pretty-printed export: `file.json:202` instead of
 * `file.json:1`. Expects text that JSON.parse accepted; called on the error path only.
 */
export function arrayElementLines(text: string): number[] {
  const starts: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      line++;
      continue;
    }
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x20 || c === 0x09 || c === 0x0d) continue;
    if (expectElement && depth === 1 && c !== 0x5d) starts.push(line);
    expectElement = false;
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (depth === 0 && c !== 0x5b) return [];
      if (++depth === 1) expectElement = true;
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x2c && depth === 1) expectElement = true;
  }
  return starts;
}

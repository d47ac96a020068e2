import { describe, expect, it } from 'vitest';
import { arrayElementLines, jsonErrorPosition } from '../../src/trace/jsonErrorPosition.js';

describe('jsonErrorPosition', () => {
  it.each([
    ['{"a": 1}', undefined],
    ['[1, 2, {"b": [true, false, null, "x\\n", -1.5e3]}]', undefined],
    ['{\n  "a": 1,\n  "b": }\n', { line: 3, column: 8 }],
    ['[\n  {\n    "id": "a",\n    "steps": [\n  }\n]\n', { line: 5, column: 3 }],
    ['{"a": 1} trailing', { line: 1, column: 10 }],
    ['{"a": "unterminated', { line: 1, column: 20 }],
    ["{'a': 1}", { line: 1, column: 2 }],
  ])('%j', (text, want) => {
    const got = jsonErrorPosition(text);
    if (want === undefined) {
      expect(got).toBeUndefined();
      expect(() => JSON.parse(text)).not.toThrow();
    } else {
      expect(got).toMatchObject(want);
      expect(() => JSON.parse(text)).toThrow();
    }
  });

  it('survives deep nesting without a stack overflow', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(199_999);
    expect(jsonErrorPosition(deep)?.line).toBe(1);
  });
});

describe('arrayElementLines', () => {
  it.each([
    ['[\n  {"a": "x,\\"[{"},\n\n  [1,\n 2],\n  "s", 3\n]', [2, 4, 6, 6]],
    ['[{"a":1},{"b":2}]', [1, 1]],
    ['[\n]', []],
    ['{"a": [1, 2]}', []],
    ['"just a string"', []],
  ])('%j', (text, want) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(arrayElementLines(text)).toEqual(want);
  });
});

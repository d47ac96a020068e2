import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  describeFields,
  fieldListMarkdown,
  typeText,
  yamlValue,
  type JsonSchemaNode,
} from '../../src/util/schemaDocs.js';

const toJson = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode;

describe('schema docs', () => {
  const Severity = z.enum(['critical', 'high', 'medium', 'low']);
  const schema = z
    .object({
      threshold: z.number().int().min(2).default(3).describe('Repeats that make a loop'),
      ratio: z.number().min(0).max(1).describe('A share'),
      failOn: z.union([Severity, z.array(Severity)]).describe('What fails'),
      ignore: z.array(z.string()).default(['ts', 'updated_at']),
      cassette: z
        .object({ mode: z.enum(['auto', 'replay']).default('auto').describe('How judges are replayed') })
        .default({ mode: 'auto' }),
      off: z.union([z.literal(false), z.number().positive()]),
    })
    .catchall(z.object({ inputPer1M: z.number().nonnegative().describe('USD per million input tokens') }));

  it("writes each key's type, default and description, with the keys under it and a map's entries", () => {
    expect(fieldListMarkdown(describeFields(toJson(schema)))).toEqual([
      '- `threshold` — integer ≥ 2, default `3`. Repeats that make a loop.',
      '- `ratio` — number 0–1. A share.',
      '- `failOn` — one of `critical`, `high`, `medium`, `low` (or a list of them). What fails.',
      '- `ignore` — list of string, default `[ts, updated_at]`.',
      '- `cassette` — object.',
      '  - `mode` — one of `auto`, `replay`, default `auto`. How judges are replayed.',
      '- `off` — `false`, or number > 0.',
      '- `<name>` — object.',
      '  - `inputPer1M` — number ≥ 0. USD per million input tokens.',
    ]);
  });

  it('names long enums by what they are when the page says so', () => {
    const ids = toJson(z.array(z.enum(['TOOL_LOOP', 'RETRY_STORM', 'TOOL_THRASHING', 'COST_SPIKE'])));
    expect(typeText(ids)).toBe('list of one of `TOOL_LOOP`, `RETRY_STORM`, `TOOL_THRASHING`, `COST_SPIKE`');
    expect(typeText(ids, { enumLabel: () => 'detector id' })).toBe('list of detector id');
  });

  it('writes defaults as YAML flow values, quoting strings YAML would misread', () => {
    expect(yamlValue({ path: '.tracejury/cassette.jsonl', mode: 'auto' })).toBe(
      '{ path: .tracejury/cassette.jsonl, mode: auto }',
    );
    expect(yamlValue(['a b', 'x: y', ''])).toBe('[a b, "x: y", ""]');
    expect(yamlValue({})).toBe('{}');
  });
});

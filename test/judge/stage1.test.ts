import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateResponse, formatPath } from '../../src/judge/index.js';

const order = {
  type: 'object',
  required: ['id', 'status', 'items'],
  properties: {
    id: { type: 'string', pattern: '^ord_[0-9]+$' },
    status: { enum: ['open', 'paid', 'shipped'] },
    note: { type: 'string', maxLength: 5 },
    items: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['sku', 'price'],
        properties: {
          sku: { type: 'string', minLength: 3 },
          price: { type: 'number', minimum: 0, maximum: 1000 },
        },
      },
    },
  },
};

describe('stage 1: schema validation', () => {
  it('reports JSON Schema errors with precise paths', () => {
    const r = validateResponse(
      {
        id: 'order-1',
        status: 'lost',
        note: 'far too long',
        items: [{ sku: 'abc', price: 1 }, { sku: 'abc', price: 2 }, { sku: 'x', price: -5 }, { sku: 'abcd' }],
      },
      order,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual(
      expect.arrayContaining([
        { path: '$.id', message: 'must match pattern /^ord_[0-9]+$/' },
        { path: '$.status', message: 'must be one of "open", "paid", "shipped"' },
        { path: '$.note', message: 'length must be <= 5' },
        { path: '$.items[2].sku', message: 'length must be >= 3' },
        { path: '$.items[2].price', message: 'must be >= 0' },
        { path: '$.items[3].price', message: 'is required' },
      ]),
    );
    expect(r.errors).toHaveLength(6);
  });

  it('reports missing fields, wrong types and maximums', () => {
    const r = validateResponse({ status: 'open', items: [{ sku: 'abc', price: 5000 }], id: 7 }, order);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      { path: '$.id', message: 'expected string, got number' },
      { path: '$.items[0].price', message: 'must be <= 1000' },
    ]);
    const empty = validateResponse({ id: 'ord_1', status: 'open', items: [] }, order);
    expect(empty.ok ? [] : empty.errors).toEqual([{ path: '$.items', message: 'must have >= 1 items' }]);
    const missing = validateResponse({}, order);
    expect(missing.ok ? [] : missing.errors.map((e) => e.path)).toEqual(['$.id', '$.status', '$.items']);
  });

  it('reports zod errors the same way', () => {
    const schema = z.object({
      decision: z.enum(['approve', 'reject']),
      agent: z.object({ name: z.string().min(1), confidence: z.number().min(0).max(1) }),
      'odd key': z.boolean(),
    });
    const r = validateResponse(
      { decision: 'maybe', agent: { name: '', confidence: 1.5 }, 'odd key': 'yes' },
      schema,
    );
    expect(r.ok ? [] : r.errors).toEqual([
      { path: '$.decision', message: 'must be one of "approve", "reject"' },
      { path: '$.agent.name', message: 'length must be >= 1' },
      { path: '$.agent.confidence', message: 'must be <= 1' },
      { path: '$["odd key"]', message: 'expected boolean, got string' },
    ]);
  });

  it('parses a string response as JSON first (fenced or plain)', () => {
    const schema = z.object({ ok: z.boolean() });
    expect(validateResponse('{"ok": true}', schema)).toEqual({ ok: true, value: { ok: true } });
    expect(validateResponse('Here you go:\n```json\n{"ok": false}\n```\n', schema)).toEqual({
      ok: true,
      value: { ok: false },
    });
    const bad = validateResponse('not json at all', schema);
    expect(bad.ok).toBe(false);
    expect(bad.ok ? '' : bad.errors[0]!.path + ' ' + bad.errors[0]!.message).toMatch(
      /^\$ response is not valid JSON/,
    );
  });

  it('formats paths', () => {
    expect(formatPath([])).toBe('$');
    expect(formatPath(['items', 2, 'price'])).toBe('$.items[2].price');
    expect(formatPath(['a b'])).toBe('$["a b"]');
  });
});

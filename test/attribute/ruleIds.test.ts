import { describe, expect, it } from 'vitest';
import { ATTRIBUTION_RULE_IDS } from '../../src/attribute/ruleIds.js';
import { ATTRIBUTION_RULES } from '../../src/attribute/rules/index.js';

describe('attribution rule ids', () => {
  it('the typed list is the rules’ own ids, in the order they are tried, each with a message and a description', () => {
    expect(ATTRIBUTION_RULES.map((r) => r.meta.id)).toEqual([...ATTRIBUTION_RULE_IDS]);
    for (const r of ATTRIBUTION_RULES) {
      expect(r.meta.description.length).toBeGreaterThan(20);
      expect(Object.keys(r.meta.messages).length).toBeGreaterThan(0);
    }
  });
});

/**
 * The attribution rules, in the order they are tried: earliest credible cause first. When two name
 * steps of the same weight, the earlier step wins, and on the same step the rule listed first.
 */
import type { AttributionRule } from '../rule.js';
import { answerRepeats } from './answerRepeats.js';
import { busiestAgent } from './busiestAgent.js';
import { expectedActions } from './expectedActions.js';
import { injectionObeyed } from './injectionObeyed.js';
import { loopStart } from './loopStart.js';
import { unrecoveredFailure } from './unrecoveredFailure.js';

export const ATTRIBUTION_RULES: readonly AttributionRule[] = [
  unrecoveredFailure,
  expectedActions,
  injectionObeyed,
  loopStart,
  answerRepeats,
  busiestAgent,
];

export function findRule(id: string): AttributionRule | undefined {
  return ATTRIBUTION_RULES.find((r) => r.meta.id === id);
}

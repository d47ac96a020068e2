/**
 * DOMAIN_CONSTRAINT_VIOLATION (tier 2): a state field holds a value outside its domain, judged by
 * the field's name (detection-tiers.md "domain constraint validation"): age 0–150, money amounts
 * (price, amount, cost, total, …) ≥ 0, percentages 0–100, e-mail and URL formats.
 *
 * A field matches a rule when its whole name (separators dropped, lowercased) or its last word is
 * one of the rule's names: `unit_price`, `patientAge`, `contact_email`, `homepage_url`. Numbers and
 * numeric strings are checked; null and empty strings are "missing", not invalid. Every object is
 * walked, nested or in arrays; a violation is reported when a field first takes an invalid value
 * (or a different invalid value), not again on every later snapshot.
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import { joinPath, keyTokens, preview, snapshotsByAgent, visitObjects } from './stateSnapshots.js';

const NUMERIC = /^-?\d{1,15}(?:\.\d{1,15})?$/;
/** Deliberately loose (one @, a dot in the domain, no spaces): catches garbage, not RFC corner cases. */
const EMAIL = /^[^\s@]{1,64}@[^\s@.]{1,63}(?:\.[^\s@.]{1,63}){1,8}$/;

const asNumber = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && NUMERIC.test(v.trim())
      ? Number(v.trim())
      : undefined;

function validUrl(s: string): boolean {
  if (s.length > 8192 || /\s/.test(s.trim())) return false;
  try {
    const u = new URL(s.trim());
    return (
      /^[a-z][a-z0-9+.-]*:$/.test(u.protocol) &&
      (u.host !== '' || u.protocol === 'mailto:' || u.protocol === 'file:')
    );
  } catch {
    return false;
  }
}

type RuleName = 'age' | 'non_negative' | 'percent' | 'email' | 'url';

export const domainConstraintViolation = defineDetector({
  meta: {
    id: 'DOMAIN_CONSTRAINT_VIOLATION',
    configKey: 'domain_constraint_violation',
    tier: 2,
    kind: 'state',
    severity: 'medium',
    failureMode: 'state_corruption',
    description:
      'A state field holds a value outside its domain: age 0–150, negative price, percentage > 100, malformed e-mail or URL',
    fix: 'validate state values against a schema (ranges, formats) before the agent writes them',
    rule: 'A state field holds a value its name rules out: an age outside 0–`max_age`, a negative price or amount, a percentage outside 0–100, a malformed e-mail address or URL. A field matches by its whole name or its last word (`unit_price`, `contact_email`); null and empty values are missing, not invalid.',
    config: z.object({
      age_fields: z.array(z.string()).default(['age']).describe('Fields that hold an age (0 to max_age)'),
      max_age: z.number().positive().default(150).describe('The largest valid age'),
      non_negative_fields: z
        .array(z.string())
        .default(['price', 'amount', 'cost', 'total', 'subtotal', 'fee', 'quantity', 'qty', 'tax'])
        .describe('Fields that must be ≥ 0'),
      percent_fields: z
        .array(z.string())
        .default(['percent', 'percentage', 'pct'])
        .describe('Fields that must be 0–100'),
      email_fields: z
        .array(z.string())
        .default(['email', 'emailaddress'])
        .describe('Fields that must hold a well-formed e-mail address'),
      url_fields: z
        .array(z.string())
        .default(['url', 'uri', 'href', 'link', 'website', 'homepage'])
        .describe('Fields that must hold a well-formed URL'),
    }),
  },
  detect(trace, ctx) {
    const byAgent = snapshotsByAgent(trace);
    if (byAgent.size === 0) return [];
    const cfg = ctx.config;
    const lists: [RuleName, Set<string>][] = [
      ['age', new Set(cfg.age_fields.map((f) => f.toLowerCase()))],
      ['non_negative', new Set(cfg.non_negative_fields.map((f) => f.toLowerCase()))],
      ['percent', new Set(cfg.percent_fields.map((f) => f.toLowerCase()))],
      ['email', new Set(cfg.email_fields.map((f) => f.toLowerCase()))],
      ['url', new Set(cfg.url_fields.map((f) => f.toLowerCase()))],
    ];
    const ruleCache = new Map<string, RuleName | undefined>();
    const ruleFor = (key: string): RuleName | undefined => {
      if (ruleCache.has(key)) return ruleCache.get(key);
      const tokens = keyTokens(key);
      const whole = tokens.join('');
      const last = tokens[tokens.length - 1] ?? '';
      const rule = lists.find(([, names]) => names.has(whole) || names.has(last))?.[0];
      ruleCache.set(key, rule);
      return rule;
    };
    const check = (rule: RuleName, v: unknown): string | undefined => {
      if (v === null || v === undefined || v === '') return undefined;
      switch (rule) {
        case 'age': {
          const n = asNumber(v);
          return n !== undefined && (n < 0 || n > cfg.max_age)
            ? `an age must be between 0 and ${cfg.max_age}`
            : undefined;
        }
        case 'non_negative': {
          const n = asNumber(v);
          return n !== undefined && n < 0 ? 'it must not be negative' : undefined;
        }
        case 'percent': {
          const n = asNumber(v);
          return n !== undefined && (n < 0 || n > 100) ? 'a percentage must be between 0 and 100' : undefined;
        }
        case 'email':
          return typeof v === 'string' && !EMAIL.test(v.trim())
            ? 'it is not a valid e-mail address'
            : undefined;
        case 'url':
          return typeof v === 'string' && !validUrl(v) ? 'it is not a valid absolute URL' : undefined;
      }
    };
    const confidence: Record<RuleName, number> = {
      age: 0.85,
      non_negative: 0.85,
      percent: 0.82,
      email: 0.75,
      url: 0.72,
    };
    const signals: SignalDraft[] = [];
    for (const [agentId, snaps] of byAgent) {
      const lastBad = new Map<string, string>();
      for (const snap of snaps) {
        const seen = new Set<string>();
        visitObjects(snap.state, (obj, path) => {
          for (const [key, v] of Object.entries(obj)) {
            if (v !== null && typeof v === 'object') continue;
            const rule = ruleFor(key);
            if (!rule) continue;
            const field = joinPath(path, key);
            const why = check(rule, v);
            if (!why) continue;
            seen.add(field);
            const shown = preview(v);
            if (lastBad.get(field) === shown) continue;
            lastBad.set(field, shown);
            signals.push({
              steps: [snap.step],
              confidence: confidence[rule],
              message: `Step ${snap.step}: in the state of agent "${agentId}", ${field} is ${shown}: ${why}.`,
              evidence: { agentId, field, value: v, rule },
            });
          }
        });
        // A field that became valid (or vanished) and later turns invalid again is a new occurrence.
        for (const field of [...lastBad.keys()]) if (!seen.has(field)) lastBad.delete(field);
      }
    }
    return signals;
  },
});

/**
 * CROSS_FIELD_INCONSISTENCY (tier 2): sibling fields that must be ordered are not — start after
 * end, min above max, check-in after check-out (detection-tiers.md "cross-field consistency").
 *
 * Pairs are found by name: a key containing a "low" token (start, begin, min, from, check_in, …) at
 * a word boundary whose sibling with the matching "high" token (end, max, to, check_out, …) exists:
 * start/end, start_date/end_date, startTime/endTime, min_x/max_x, valid_from/valid_to. Values are
 * compared as numbers (numeric strings too), as ISO dates / date-times, or as clock times (HH:MM);
 * from/to only as dates (they also name senders and currencies). Equal values are consistent (a
 * one-day trip). Every object of the state is checked, nested or in arrays; a violation is reported
 * when it appears (or its values change), not again on each later snapshot that still carries it.
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import { joinPath, preview, snapshotsByAgent, visitObjects } from './stateSnapshots.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
const NUMERIC = /^-?\d{1,15}(?:\.\d{1,15})?$/;

type Kind = 'number' | 'date' | 'time';

function comparable(v: unknown, datesOnly: boolean): { kind: Kind; value: number } | undefined {
  if (typeof v === 'number' && Number.isFinite(v))
    return datesOnly ? undefined : { kind: 'number', value: v };
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  if (s.length > 40) return undefined;
  if (ISO_DATE.test(s)) {
    const t = Date.parse(s);
    return Number.isFinite(t) ? { kind: 'date', value: t } : undefined;
  }
  if (datesOnly) return undefined;
  const c = CLOCK.exec(s);
  if (c) return { kind: 'time', value: Number(c[1]) * 3600 + Number(c[2]) * 60 + Number(c[3] ?? 0) };
  if (NUMERIC.test(s)) return { kind: 'number', value: Number(s) };
  return undefined;
}

const variants = (token: string) => [
  token,
  token.toLowerCase(),
  token.charAt(0).toUpperCase() + token.slice(1),
  token.toUpperCase(),
];

interface Pair {
  low: string;
  high: string;
  datesOnly: boolean;
  /** The spellings of low and high (as given, lower, Capitalised, UPPER), index for index. */
  lows: string[];
  highs: string[];
}

/** Counterpart of `key` for the pair (low, high), if `key` holds `low` at a word boundary. */
function counterparts(key: string, { lows, highs }: Pair): string[] {
  const out: string[] = [];
  lows.forEach((lv, vi) => {
    let from = 0;
    for (;;) {
      const at = key.indexOf(lv, from);
      if (at < 0) break;
      from = at + 1;
      const before = at === 0 ? '' : key[at - 1]!;
      const after = key[at + lv.length] ?? '';
      const startsWord =
        before === '' ||
        before === '_' ||
        before === '-' ||
        (/[A-Z]/.test(lv[0]!) && /[a-z0-9]/.test(before));
      const endsWord = after === '' || after === '_' || after === '-' || /[A-Z0-9]/.test(after);
      if (startsWord && endsWord) out.push(key.slice(0, at) + highs[vi]! + key.slice(at + lv.length));
    }
  });
  return out;
}

export const crossFieldInconsistency = defineDetector({
  meta: {
    id: 'CROSS_FIELD_INCONSISTENCY',
    configKey: 'cross_field_inconsistency',
    tier: 2,
    kind: 'state',
    severity: 'high',
    failureMode: 'state_corruption',
    description:
      'Paired state fields contradict each other: start after end, min above max, check-in after check-out',
    fix: 'validate paired fields (start ≤ end, min ≤ max) in the code or schema that writes the state',
    rule: 'Paired fields of a state object are out of order: start after end, min above max, check-in after check-out. Pairs are found by name (`start`/`end`, `min`/`max`, `start_date`/`end_date`, `valid_from`/`valid_to`; see `pairs` and `date_pairs`) in every object of the state, and compared as numbers, dates or clock times; equal values are fine. A violation is reported when it appears, not again on every later snapshot.',
    config: z.object({
      pairs: z
        .array(z.tuple([z.string(), z.string()]))
        .default([
          ['start', 'end'],
          ['begin', 'end'],
          ['min', 'max'],
          ['minimum', 'maximum'],
          ['lower', 'upper'],
          ['earliest', 'latest'],
          ['check_in', 'check_out'],
          ['checkIn', 'checkOut'],
          ['checkin', 'checkout'],
          ['arrival', 'departure'],
          ['open', 'close'],
        ])
        .describe(
          'Name tokens [low, high]: a field with the low token must not exceed its sibling with the high token',
        ),
      date_pairs: z
        .array(z.tuple([z.string(), z.string()]))
        .default([
          ['from', 'to'],
          ['since', 'until'],
        ])
        .describe('Like pairs, but compared only when both values are dates'),
    }),
  },
  detect(trace, ctx) {
    const byAgent = snapshotsByAgent(trace);
    if (byAgent.size === 0) return [];
    const pair = (low: string, high: string, datesOnly: boolean): Pair => ({
      low,
      high,
      datesOnly,
      lows: variants(low),
      highs: variants(high),
    });
    const pairs = [
      ...ctx.config.pairs.map(([l, h]) => pair(l, h, false)),
      ...ctx.config.date_pairs.map(([l, h]) => pair(l, h, true)),
    ];
    // The same keys come back in every snapshot: each key's counterparts are worked out once.
    const counterpartsOf = new Map<string, { other: string; p: Pair }[]>();
    const candidates = (key: string) => {
      let list = counterpartsOf.get(key);
      if (list === undefined) {
        list = [];
        for (const p of pairs)
          for (const other of counterparts(key, p)) if (other !== key) list.push({ other, p });
        counterpartsOf.set(key, list);
      }
      return list;
    };
    const signals: SignalDraft[] = [];
    for (const [agentId, snaps] of byAgent) {
      let previous = new Set<string>();
      for (const snap of snaps) {
        const current = new Set<string>();
        const found: { low: string; high: string; lowValue: unknown; highValue: unknown; kind: Kind }[] = [];
        visitObjects(snap.state, (obj, path) => {
          for (const key of Object.keys(obj)) {
            for (const { other, p } of candidates(key)) {
              if (!(other in obj)) continue;
              const a = comparable(obj[key], p.datesOnly);
              const b = comparable(obj[other], p.datesOnly);
              if (!a || !b || a.kind !== b.kind || a.value <= b.value) continue;
              const id = `${joinPath(path, key)}>${joinPath(path, other)}=${preview(obj[key])}|${preview(obj[other])}`;
              if (current.has(id)) continue;
              current.add(id);
              if (!previous.has(id)) {
                found.push({
                  low: joinPath(path, key),
                  high: joinPath(path, other),
                  lowValue: obj[key],
                  highValue: obj[other],
                  kind: a.kind,
                });
              }
            }
          }
        });
        previous = current;
        for (const f of found) {
          const word = f.kind === 'number' ? 'greater than' : 'later than';
          signals.push({
            steps: [snap.step],
            confidence: f.kind === 'number' ? 0.85 : 0.88,
            message: `Step ${snap.step}: in the state of agent "${agentId}", ${f.low} (${preview(f.lowValue)}) is ${word} ${f.high} (${preview(f.highValue)}); the first must not come after the second.`,
            evidence: {
              agentId,
              lowField: f.low,
              highField: f.high,
              lowValue: f.lowValue,
              highValue: f.highValue,
              comparedAs: f.kind,
            },
          });
        }
      }
    }
    return signals;
  },
});

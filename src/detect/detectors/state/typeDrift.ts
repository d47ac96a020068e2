/**
 * TYPE_DRIFT (tier 2): a state field changes type between snapshots of one agent — a number
 * becomes a string, an object becomes a string, a list becomes an object (detection-tiers.md
 * "type drift detection"). Null / missing is not a type: null → value and value → null are not
 * drift, and a field is compared with the last non-null type it had. Integers and floats are both
 * numbers. All drifts at one step are one signal (they usually share a cause, e.g. a serialiser).
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import {
  flattenState,
  listSome,
  preview,
  snapshotsByAgent,
  typeOfValue,
  type ValueType,
} from './stateSnapshots.js';

const NUMERIC = /^-?\d{1,15}(?:\.\d{1,15})?$/;

export const typeDrift = defineDetector({
  meta: {
    id: 'TYPE_DRIFT',
    configKey: 'type_drift',
    tier: 2,
    kind: 'state',
    severity: 'medium',
    failureMode: 'state_corruption',
    description: 'A state field changes type between snapshots (e.g. a number becomes a string)',
    fix: 'parse model output into a typed schema before writing it to state, so each field keeps its type',
    rule: 'A state field changes type between snapshots of one agent: a number becomes a string, a list an object. Null and missing are not types, and integers and floats are both numbers; all drifts at one step are one signal.',
    config: z.object({
      ignore_fields: z.array(z.string()).default([]).describe('Field paths (a.b.c) whose type may change'),
    }),
  },
  detect(trace, ctx) {
    const ignore = new Set(ctx.config.ignore_fields);
    const signals: SignalDraft[] = [];
    for (const [agentId, snaps] of snapshotsByAgent(trace)) {
      const lastType = new Map<string, { type: ValueType; value: unknown; step: number }>();
      for (const snap of snaps) {
        const drifts: {
          field: string;
          from: ValueType;
          to: ValueType;
          before: unknown;
          after: unknown;
          since: number;
        }[] = [];
        for (const [field, value] of flattenState(snap.state)) {
          const type = typeOfValue(value);
          if (type === 'null' || ignore.has(field)) continue;
          const last = lastType.get(field);
          if (last && last.type !== type) {
            drifts.push({
              field,
              from: last.type,
              to: type,
              before: last.value,
              after: value,
              since: last.step,
            });
          }
          lastType.set(field, { type, value, step: snap.step });
        }
        if (drifts.length === 0) continue;
        // A number that now arrives as its own digits ("42") is the mildest drift: likely serialisation.
        const mild = drifts.every(
          (d) =>
            d.from === 'number' &&
            d.to === 'string' &&
            typeof d.after === 'string' &&
            NUMERIC.test(d.after.trim()),
        );
        const described = drifts.map(
          (d) => `${d.field} ${d.from} → ${d.to} (${preview(d.before, 24)} → ${preview(d.after, 24)})`,
        );
        signals.push({
          steps: [snap.step],
          confidence: mild ? 0.72 : Math.min(0.9, 0.82 + 0.02 * (drifts.length - 1)),
          message: `Step ${snap.step}: in the state of agent "${agentId}", ${drifts.length === 1 ? 'a field changed type' : `${drifts.length} fields changed type`}: ${listSome(described, 4)}.`,
          evidence: {
            agentId,
            drifts: drifts.map((d) => ({
              field: d.field,
              from: d.from,
              to: d.to,
              before: d.before,
              after: d.after,
              previousStep: d.since,
            })),
          },
        });
      }
    }
    return signals;
  },
});

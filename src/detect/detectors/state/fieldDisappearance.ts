/**
 * FIELD_DISAPPEARANCE (tier 2): several state fields vanish at once between consecutive snapshots
 * of one agent (detection-tiers.md "null / disappearance detection": 3+ fields).
 *
 * A field vanishes when it had a non-null value and is then missing or null. Only the outermost
 * vanished field counts: a nested object that disappears is one field, not one per leaf inside it.
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import { round3 } from '../../../util/round.js';
import { flattenState, listSome, snapshotsByAgent } from './stateSnapshots.js';

export const fieldDisappearance = defineDetector({
  meta: {
    id: 'FIELD_DISAPPEARANCE',
    configKey: 'field_disappearance',
    tier: 2,
    kind: 'state',
    severity: 'high',
    failureMode: 'state_corruption',
    description: 'Several state fields vanish (or turn null) at once between consecutive snapshots',
    fix: 'merge state updates instead of replacing the state object, so fields a step did not touch are kept',
    rule: "`min_fields` or more fields that had values are missing (or null, with `null_counts_as_missing`) in the agent's next snapshot. A nested object that disappears counts as one field.",
    config: z.object({
      min_fields: z.number().int().positive().default(3).describe('Fields that must vanish in one step'),
      null_counts_as_missing: z.boolean().default(true).describe('A field set to null counts as vanished'),
      ignore_fields: z.array(z.string()).default([]).describe('Field paths (a.b.c) that may come and go'),
    }),
  },
  detect(trace, ctx) {
    const { min_fields: minFields, null_counts_as_missing: nullMissing } = ctx.config;
    const ignore = new Set(ctx.config.ignore_fields);
    const present = (flat: Map<string, unknown>, path: string) => {
      if (!flat.has(path)) return false;
      const v = flat.get(path);
      return !(v === undefined || (nullMissing && v === null));
    };
    const signals: SignalDraft[] = [];
    for (const [agentId, snaps] of snapshotsByAgent(trace)) {
      let prev: Map<string, unknown> | undefined;
      let prevStep = 0;
      for (const snap of snaps) {
        const cur = flattenState(snap.state);
        if (prev) {
          const gone: string[] = [];
          for (const [path, v] of prev) {
            if (v === null || v === undefined || ignore.has(path) || present(cur, path)) continue;
            // Count only the outermost vanished field.
            const dot = path.lastIndexOf('.');
            const parent = dot < 0 ? undefined : path.slice(0, dot);
            if (parent !== undefined && prev.has(parent) && !present(cur, parent)) continue;
            gone.push(path);
          }
          if (gone.length >= minFields) {
            signals.push({
              steps: [snap.step],
              confidence: round3(Math.min(0.9, 0.75 + 0.05 * (gone.length - minFields))),
              message: `Step ${snap.step}: ${gone.length} fields vanished at once from the state of agent "${agentId}": ${listSome(gone)}.`,
              evidence: { agentId, vanished: gone, count: gone.length, previousStep: prevStep },
            });
          }
        }
        prev = cur;
        prevStep = snap.step;
      }
    }
    return signals;
  },
});

/**
 * STATE_VELOCITY_ANOMALY (tier 2): the state of an agent changes abnormally fast at one step,
 * measured against the agent's own pace in the same trace (detection-tiers.md "velocity analysis").
 *
 * Two measures over consecutive snapshots of one agentId (leaf fields: nested objects descended,
 * arrays compared whole), once the agent has at least `min_snapshots` snapshots:
 * - burst: the number of leaf fields added, changed or removed in one step is at least
 *   `burst_factor` × the median of that number over the agent's steps (median floored at 1) and
 *   at least `min_changed_fields`;
 * - jump: a numeric field moves by at least `jump_factor` × the median size of its own non-zero
 *   moves, when it has moved at least `min_numeric_changes` times.
 * Confidence 0.75 at the threshold, +0.05 per doubling beyond it, up to 0.90.
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import { round3 } from '../../../util/round.js';
import { flattenState, leaves, listSome, median, preview, snapshotsByAgent } from './stateSnapshots.js';

const confidenceFor = (ratio: number, factor: number) =>
  round3(Math.min(0.9, 0.75 + 0.05 * Math.log2(Math.max(1, ratio / factor))));

export const stateVelocityAnomaly = defineDetector({
  meta: {
    id: 'STATE_VELOCITY_ANOMALY',
    configKey: 'state_velocity_anomaly',
    tier: 2,
    kind: 'state',
    severity: 'medium',
    failureMode: 'state_corruption',
    description: "An agent's state changes far faster at one step than its own median pace in the trace",
    fix: 'look at the step that rewrote most of the state at once: usually a bad overwrite or a parse error',
    rule: "Measured against the agent's own pace in the run, once it has `min_snapshots` snapshots: one step changes at least `burst_factor` × the median number of fields a step changes (and at least `min_changed_fields`), or a number jumps by `jump_factor` × the usual size of its own moves.",
    config: z.object({
      min_snapshots: z
        .number()
        .int()
        .min(3)
        .default(5)
        .describe('Snapshots of one agent needed before judging its pace'),
      burst_factor: z
        .number()
        .positive()
        .default(3)
        .describe('Changed fields in one step vs the median per step'),
      min_changed_fields: z
        .number()
        .int()
        .positive()
        .default(5)
        .describe('A burst must change at least this many fields'),
      jump_factor: z
        .number()
        .positive()
        .default(10)
        .describe("A numeric field's move vs the median of its own moves"),
      min_numeric_changes: z
        .number()
        .int()
        .min(2)
        .default(3)
        .describe('Non-zero moves a numeric field needs before jumps count'),
    }),
  },
  detect(trace, ctx) {
    const cfg = ctx.config;
    const signals: SignalDraft[] = [];
    for (const [agentId, snaps] of snapshotsByAgent(trace)) {
      if (snaps.length < cfg.min_snapshots) continue;
      const flats = snaps.map((s) => leaves(flattenState(s.state)));
      const changes: { step: number; fields: string[] }[] = [];
      const moves = new Map<string, { step: number; delta: number; from: number; to: number }[]>();
      for (let i = 1; i < flats.length; i++) {
        const prev = flats[i - 1]!;
        const cur = flats[i]!;
        const fields: string[] = [];
        for (const [k, v] of cur) {
          if (!prev.has(k)) fields.push(k);
          else {
            const before = prev.get(k);
            if (typeof v === 'number' && typeof before === 'number') {
              if (v !== before) {
                fields.push(k);
                const list = moves.get(k) ?? [];
                list.push({ step: snaps[i]!.step, delta: Math.abs(v - before), from: before, to: v });
                moves.set(k, list);
              }
            } else if (v !== before && JSON.stringify(v) !== JSON.stringify(before)) fields.push(k);
          }
        }
        for (const k of prev.keys()) if (!cur.has(k)) fields.push(k);
        changes.push({ step: snaps[i]!.step, fields });
      }
      const med = Math.max(1, median(changes.map((c) => c.fields.length)));
      const threshold = Math.max(cfg.min_changed_fields, cfg.burst_factor * med);
      for (const c of changes) {
        if (c.fields.length < threshold) continue;
        const ratio = c.fields.length / med;
        signals.push({
          steps: [c.step],
          confidence: confidenceFor(ratio, cfg.burst_factor),
          message: `Step ${c.step}: the state of agent "${agentId}" changed ${c.fields.length} fields at once (${listSome(c.fields)}), ${round3(ratio)}× its median of ${med} per step.`,
          evidence: {
            agentId,
            measure: 'burst',
            changedFields: c.fields.length,
            fields: c.fields.slice(0, 20),
            medianPerStep: med,
            ratio: round3(ratio),
          },
        });
      }
      for (const [field, list] of moves) {
        if (list.length < cfg.min_numeric_changes) continue;
        const m = median(list.map((x) => x.delta));
        if (m <= 0) continue;
        for (const mv of list) {
          const ratio = mv.delta / m;
          if (ratio < cfg.jump_factor) continue;
          signals.push({
            steps: [mv.step],
            confidence: confidenceFor(ratio, cfg.jump_factor),
            message: `Step ${mv.step}: ${field} in the state of agent "${agentId}" jumped from ${preview(mv.from)} to ${preview(mv.to)}, a move ${round3(ratio)}× its median move of ${round3(m)}.`,
            evidence: {
              agentId,
              measure: 'jump',
              field,
              from: mv.from,
              to: mv.to,
              delta: mv.delta,
              medianDelta: m,
              ratio: round3(ratio),
            },
          });
        }
      }
    }
    return signals.sort((a, b) => a.steps[0]! - b.steps[0]!);
  },
});

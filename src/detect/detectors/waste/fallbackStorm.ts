/**
 * FALLBACK_STORM — the same task thrown at several models in a short time (chaotic fallback).
 *
 * Calls for the same task are the LLM calls with the same prompt (`same_prompt: true`, default;
 * `false` treats every LLM call of the trace as one task, as the source tool does — too noisy for
 * agent traces that use a planner and a worker model). Within a task, calls are cut into windows of
 * `time_window_minutes` from a window's first call; a window with at least `fallback_threshold`
 * calls on at least `min_distinct_models` models is a storm. Every storm is reported.
 *
 * Waste: the calls of the storm on expensive models (tiers from the price table, see
 * src/pricing/modelTier.ts), as the reference says — "Cost of expensive model calls",
 * `storm_waste = sum(call.cost for call in expensive_model_calls)` — at recorded cost, else
 * tokens × price. Its worked example (gpt-3.5-turbo $0.0005, then gpt-4 $0.0150 and
 * claude-3-sonnet $0.0090 ⇒ $0.0240) would also fit "every call after the first", but that reading
 * charges the cheap call and spares the expensive one as soon as the expensive model comes first
 * (gpt-4 → gpt-3.5-turbo → claude-3-sonnet: $0.0095 instead of $0.024). Cheap calls and models
 * the table does not know are not charged; a storm of cheap models is still reported, at $0.
 * (The source tool's code charges every call of the storm; its text is followed here.)
 * Severity: high with more than 5 calls (the reference's rule) or waste above
 * `high_severity_waste_usd`.
 */
import { z } from 'zod';
import { modelTierConfigShape, tierClassifier } from '../../../pricing/modelTier.js';
import { defineDetector } from '../../detector.js';
import { wastePriority } from '../../wastePriority.js';
import type { SignalDraft } from '../../detector.js';
import {
  clipPrompt,
  fmtSpan,
  fmtSteps,
  fmtUsd,
  highSeverityCalls,
  highSeverityWasteUsd,
  type LlmCall,
  llmCalls,
  promptKey,
  promptShape,
  promptText,
  roundUsd,
  runSeverity,
  sumWaste,
} from './common.js';

const MINUTE = 60_000;

/** True when at least `min` calls share one (defined) prompt shape. */
function shapeRecurs(calls: readonly LlmCall[], min: number): boolean {
  const shapes: (number | undefined)[] = calls.map((c) => promptShape(c.step));
  if (shapes.length > 64) {
    const counts = new Map<number, number>();
    for (const shape of shapes) {
      if (shape === undefined) continue;
      const n = (counts.get(shape) ?? 0) + 1;
      if (n >= min) return true;
      counts.set(shape, n);
    }
    return false;
  }
  for (let i = 0; i < shapes.length; i++) {
    const shape = shapes[i];
    if (shape === undefined) continue;
    let n = 1;
    for (let j = i + 1; j < shapes.length && n < min; j++) if (shapes[j] === shape) n++;
    if (n >= min) return true;
  }
  return false;
}

export const fallbackStorm = defineDetector({
  meta: {
    id: 'FALLBACK_STORM',
    configKey: 'fallback_storm',
    tier: 1,
    kind: 'waste',
    severity: 'medium',
    failureMode: 'cost',
    description: 'The same task sent to several different models within a short time (fallback storm).',
    fix: 'use one fallback chain in a fixed order, tried only when a call errors, not a new model per attempt',
    priority: wastePriority('FALLBACK_STORM'),
    wasteRule: "the storm's calls on expensive models; cheap calls and unpriced models are not charged",
    suppressedBy: ['RETRY_LOOP'],
    rule: 'The same task thrown at model after model: `fallback_threshold` or more LLM calls with the same prompt (`same_prompt`) on at least `min_distinct_models` models within `time_window_minutes`. High at `high_severity_calls` calls, or waste above `high_severity_waste_usd`.',
    config: z.object({
      fallback_threshold: z.number().int().min(2).default(3).describe('Calls for one task needed to flag'),
      min_distinct_models: z.number().int().min(2).default(2).describe('Distinct models among those calls'),
      time_window_minutes: z
        .number()
        .positive()
        .default(10)
        .describe('Max time from the first to the last call'),
      same_prompt: z
        .boolean()
        .default(true)
        .describe('Only calls with the same prompt are one task; false: the whole trace is one task'),
      high_severity_calls: highSeverityCalls('storm'),
      high_severity_waste_usd: highSeverityWasteUsd(0.1),
      ...modelTierConfigShape,
    }),
  },
  detect(trace, ctx) {
    const cfg = ctx.config;
    const windowMs = cfg.time_window_minutes * MINUTE;
    const all = llmCalls(trace);
    // A storm is `fallback_threshold` calls of one task: with the same prompt, calls whose prompt
    // shapes differ are different tasks, so a trace where no shape recurs that often has none.
    if (all.length < cfg.fallback_threshold) return [];
    if (cfg.same_prompt && !shapeRecurs(all, cfg.fallback_threshold)) return [];
    const tasks = new Map<string, LlmCall[]>();
    for (const call of all) {
      const key = cfg.same_prompt ? promptKey(call.step) : '';
      if (key === undefined) continue;
      const list = tasks.get(key);
      if (list) list.push(call);
      else tasks.set(key, [call]);
    }

    const storms: LlmCall[][] = [];
    for (const calls of tasks.values()) {
      let win: LlmCall[] = [];
      const close = () => {
        const models = new Set(win.map((c) => c.step.model.toLowerCase()));
        if (win.length >= cfg.fallback_threshold && models.size >= cfg.min_distinct_models) storms.push(win);
      };
      for (const call of calls) {
        if (win.length > 0 && Math.abs(call.t - win[0]!.t) > windowMs) {
          close();
          win = [];
        }
        win.push(call);
      }
      close();
    }
    storms.sort((a, b) => a[0]!.n - b[0]!.n);

    const signals: SignalDraft[] = [];
    const tierOf = tierClassifier(ctx.pricer, cfg);
    for (const s of storms) {
      const expensive = s.filter((c) => tierOf(c.step.model, c.step.provider).tier === 'expensive');
      const waste = sumWaste(expensive, ctx.pricer);
      const wasteUsd = roundUsd(waste.usd);
      const models = [...new Set(s.map((c) => c.step.model))];
      const steps = s.map((c) => c.n);
      const severity = runSeverity(s.length, wasteUsd, cfg);
      const prompt = promptText(s[0]!.step) ?? '';
      signals.push({
        severity,
        confidence: s.every((c) => c.timed) ? 0.85 : 0.8,
        steps,
        message:
          `${models.length} models tried ${cfg.same_prompt ? 'for the same prompt' : 'in one trace'} in ${fmtSpan(s)} ` +
          `(${fmtSteps(steps)}: ${s.map((c) => c.step.model).join(' → ')}): ${expensive.length} call${
            expensive.length === 1 ? '' : 's'
          } on expensive models, ${fmtUsd(wasteUsd)} wasted`,
        evidence: {
          models,
          calls: s.length,
          firstModel: s[0]!.step.model,
          wastedSteps: expensive.map((c) => c.n),
          costSources: waste.costSources,
          prompt: clipPrompt(prompt),
        },
        wasteUsd,
        wasteTokens: waste.tokens,
      });
    }
    return signals;
  },
});

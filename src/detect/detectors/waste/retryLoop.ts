/**
 * RETRY_LOOP — the same prompt sent to the same model again and again in quick succession.
 *
 * A run is a sequence of consecutive LLM calls (other step kinds in between are ignored) with the
 * same model and the same prompt, each call at most `max_retry_interval_minutes` after the one
 * before and all within `time_window_minutes` of the run's first call. A run with more than
 * `max_retries` calls (original + retries; 3 ⇒ 4+ calls) is a retry loop. Every run in every trace
 * is reported, so two loops in one trace give two signals.
 *
 * Waste: every call of the run except the first (the one that was needed), at its recorded cost,
 * else tokens × price; tokens are prompt + completion of those calls. Severity: high when the run
 * has more than 5 calls (the reference's rule) or the waste exceeds `high_severity_waste_usd`.
 */
import { z } from 'zod';
import { defineDetector } from '../../detector.js';
import { wastePriority } from '../../wastePriority.js';
import type { SignalDraft } from '../../detector.js';
import { fmtThousands, plural } from '../../../util/thousands.js';
import {
  clipPrompt,
  fmtSpan,
  fmtSteps,
  fmtUsd,
  highSeverityCalls,
  highSeverityWasteUsd,
  type LlmCall,
  llmCalls,
  promptText,
  roundUsd,
  runSeverity,
  samePrompt,
  sumWaste,
} from './common.js';

const MINUTE = 60_000;

const sameModel = (a: string, b: string): boolean => a === b || a.toLowerCase() === b.toLowerCase();

export const retryLoop = defineDetector({
  meta: {
    id: 'RETRY_LOOP',
    configKey: 'retry_loop',
    tier: 1,
    kind: 'waste',
    severity: 'medium',
    failureMode: 'cost',
    description: 'The same prompt sent to the same model repeatedly in quick succession (retry loop).',
    fix: 'cap retries with exponential backoff, and stop resending a prompt that got the same reply 3 times',
    priority: wastePriority('RETRY_LOOP'),
    wasteRule: 'every call of the loop after the first (the one that was needed)',
    suppressedBy: [],
    rule: '`max_retries` + 1 or more consecutive LLM calls with the same model and the same prompt (the first and at least `max_retries` retries), each within `max_retry_interval_minutes` of the one before and all within `time_window_minutes`. High at `high_severity_calls` calls, or waste above `high_severity_waste_usd`.',
    config: z.object({
      max_retries: z
        .number()
        .int()
        .min(1)
        .default(3)
        .describe('Retries (calls after the first) needed to flag; 3 flags 4+ identical calls'),
      time_window_minutes: z
        .number()
        .positive()
        .default(5)
        .describe('Max time from the first to the last call'),
      max_retry_interval_minutes: z
        .number()
        .positive()
        .default(2)
        .describe('Max time between consecutive calls of the loop'),
      high_severity_calls: highSeverityCalls('loop'),
      high_severity_waste_usd: highSeverityWasteUsd(0.1),
    }),
  },
  detect(trace, ctx) {
    const cfg = ctx.config;
    const windowMs = cfg.time_window_minutes * MINUTE;
    const intervalMs = cfg.max_retry_interval_minutes * MINUTE;
    const calls = llmCalls(trace);

    // Runs are stretches of consecutive calls; only those long enough to be a loop are kept. The
    // prompt comparison comes last, after the cheap model and time checks.
    const runs: LlmCall[][] = [];
    let start = 0;
    for (let i = 1; i <= calls.length; i++) {
      if (i < calls.length) {
        const call = calls[i]!;
        const prev = calls[i - 1]!;
        const first = calls[start]!;
        const continues =
          sameModel(call.step.model, prev.step.model) &&
          Math.abs(call.t - prev.t) <= intervalMs &&
          Math.abs(call.t - first.t) <= windowMs &&
          samePrompt(call.step, prev.step);
        if (continues) continue;
      }
      if (i - start - 1 >= cfg.max_retries) runs.push(calls.slice(start, i));
      start = i;
    }

    const signals: SignalDraft[] = [];
    for (const r of runs) {
      const retries = r.length - 1;
      if (retries < cfg.max_retries) continue;
      const redundant = r.slice(1);
      const waste = sumWaste(redundant, ctx.pricer);
      const wasteUsd = roundUsd(waste.usd);
      const model = r[0]!.step.model;
      const steps = r.map((c) => c.n);
      const severity = runSeverity(r.length, wasteUsd, cfg);
      const prompt = promptText(r[0]!.step) ?? '';
      signals.push({
        severity,
        confidence: r.every((c) => c.timed) ? 0.9 : 0.8,
        steps,
        message:
          `${model} called ${fmtThousands(r.length)}× with the same prompt in ${fmtSpan(r)} (${fmtSteps(steps)}): ` +
          `${plural(retries, 'redundant call')}, ${fmtUsd(wasteUsd)} wasted`,
        evidence: {
          model,
          calls: r.length,
          retries,
          spanMs: r.every((c) => c.timed) ? Math.abs(r[r.length - 1]!.t - r[0]!.t) : null,
          // The calls charged: suppression keeps independent detectors from charging them again.
          wastedSteps: redundant.map((c) => c.n),
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

/**
 * CONTEXT_WINDOW_PRESSURE: an LLM call's prompt filled most of the model's context window (tier 1
 * threshold check). The window comes from config (`context_windows`) or the price table; a model
 * whose window is unknown never fires. Medium at ≥ `utilization` of the window, high above 100 %
 * (the provider truncated or rejected the prompt, or the recorded usage is wrong).
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import {
  contextWindow,
  ContextWindowOverridesSchema,
  type ContextWindowOverrides,
} from '../../../pricing/contextWindow.js';
import { fmtThousands } from '../structural/shared.js';

const pct = (n: number) => `${Math.round(n * 1000) / 10} %`;

/** Distinct (provider, model) pairs remembered per overrides object. */
const MAX_CACHED_MODELS = 4096;

// The window of a model is asked for on every LLM call, with the same overrides object for every
// trace of an agent: answers are remembered per overrides object, provider and model.
const windows = new WeakMap<ContextWindowOverrides, WindowCache>();

interface WindowCache {
  size: number;
  byProvider: Map<string | undefined, Map<string, number | undefined>>;
}

function cacheFor(overrides: ContextWindowOverrides): WindowCache {
  let cache = windows.get(overrides);
  if (!cache) {
    cache = { size: 0, byProvider: new Map() };
    windows.set(overrides, cache);
  }
  return cache;
}

function windowOf(
  cache: WindowCache,
  model: string,
  provider: string | undefined,
  overrides: ContextWindowOverrides,
): number | undefined {
  let byModel = cache.byProvider.get(provider);
  if (byModel?.has(model)) return byModel.get(model);
  const window = contextWindow(model, { provider, overrides });
  if (cache.size < MAX_CACHED_MODELS) {
    if (!byModel) {
      byModel = new Map();
      cache.byProvider.set(provider, byModel);
    }
    byModel.set(model, window);
    cache.size++;
  }
  return window;
}

export const contextWindowPressure = defineDetector({
  meta: {
    id: 'CONTEXT_WINDOW_PRESSURE',
    configKey: 'context_window_pressure',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'context_overflow',
    description: "An LLM call's prompt filled most (or more than all) of the model's context window",
    fix: 'leave headroom in the context window: summarise or drop old turns, or use a longer-context model',
    rule: "An LLM call's prompt filled `utilization` or more of the model's context window, taken from `context_windows` or the price table (a model whose window is unknown never fires). High above 100 %: the provider truncated or refused the prompt, or the recorded usage is wrong.",
    config: z.object({
      utilization: z
        .number()
        .positive()
        .max(1)
        .default(0.9)
        .describe('Fraction of the context window a prompt may fill before it is flagged'),
      context_windows: ContextWindowOverridesSchema.default({}),
    }),
  },
  detect(trace, ctx) {
    const { utilization, context_windows: overrides } = ctx.config;
    const signals: SignalDraft[] = [];
    const cache = cacheFor(overrides);
    for (let i = 0; i < trace.steps.length; i++) {
      const s = trace.steps[i]!;
      if (s.type !== 'llm') continue;
      const window = windowOf(cache, s.model, s.provider, overrides);
      if (!window) continue;
      const prompt = s.usage.inputTokens;
      const used = prompt / window;
      if (used < utilization) continue;
      const over = used > 1;
      // 0.80 at the threshold, 0.90 at a full window, 0.96 when the prompt does not fit at all.
      const confidence = over
        ? 0.96
        : Math.round((0.8 + (0.1 * (used - utilization)) / Math.max(1e-9, 1 - utilization)) * 1000) / 1000;
      signals.push({
        steps: [i + 1],
        severity: over ? 'high' : 'medium',
        confidence: Math.min(0.96, confidence),
        message: over
          ? `Step ${i + 1}: the prompt (${fmtThousands(prompt)} tokens) is larger than the context window of ${s.model} (${fmtThousands(window)} tokens): ${pct(used)}.`
          : `Step ${i + 1}: the prompt (${fmtThousands(prompt)} tokens) filled ${pct(used)} of the context window of ${s.model} (${fmtThousands(window)} tokens); the threshold is ${pct(utilization)}.`,
        evidence: {
          model: s.model,
          promptTokens: prompt,
          contextWindow: window,
          utilization: Math.round(used * 10000) / 10000,
          threshold: utilization,
        },
      });
    }
    return signals;
  },
});

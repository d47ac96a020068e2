import { describe, expect, it } from 'vitest';
import { structuralDetectors } from '../../../src/detect/detectors/structural/index.js';

describe('structuralDetectors', () => {
  it('lists the tier-1 structural detectors in the reference table order, then those added beyond it', () => {
    expect(structuralDetectors.map((d) => d.meta.id)).toEqual([
      'TOOL_LOOP',
      'TOOL_THRASHING',
      'LLM_TRUNCATION_LOOP',
      'RETRY_STORM',
      'EMPTY_LLM_RESPONSE',
      'CASCADING_TOOL_FAILURE',
      'SLOW_STEP',
      'CONTEXT_BLOAT',
      'GOAL_ABANDONMENT',
      'REASONING_STALL',
      'STEP_COUNT_INFLATION',
      'FIRST_STEP_FAILURE',
      'RAG_EMPTY_RETRIEVAL',
      'TOOL_AVOIDANCE',
      'COST_SPIKE',
      'SESSION_LATENCY',
      'HARNESS_REJECTION',
    ]);
  });

  it('are tier 1, structural, with snake_case config keys and parseable defaults', () => {
    for (const d of structuralDetectors) {
      expect(d.meta.tier).toBe(1);
      expect(d.meta.kind).toBe('structural');
      expect(d.meta.configKey).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(d.meta.configKey.toUpperCase()).toBe(d.meta.id);
      const defaults = d.meta.config.parse({});
      for (const key of Object.keys(defaults)) expect(key).toMatch(/^[a-z]+(_[a-z]+)*$/);
      // The config layer extends each schema with enabled/shadow (zod 4 refuses .extend on refined objects).
      expect(() => d.meta.config.extend({})).not.toThrow();
    }
  });

  it('marks exactly the six baseline detectors, each with a baseline_multiplier', () => {
    const withBaseline = structuralDetectors.filter((d) => d.meta.baseline);
    expect(Object.fromEntries(withBaseline.map((d) => [d.meta.id, d.meta.baseline]))).toEqual({
      SLOW_STEP: 'maxStepDurationMs',
      CONTEXT_BLOAT: 'maxPromptTokens',
      REASONING_STALL: 'llmToolRatio',
      STEP_COUNT_INFLATION: 'stepCount',
      COST_SPIKE: 'totalTokens',
      SESSION_LATENCY: 'durationMs',
    });
    for (const d of withBaseline) expect(d.meta.config.parse({})).toHaveProperty('baseline_multiplier');
  });

  it('has the reference defaults (and ours for the detectors the reference does not list)', () => {
    const defaults = Object.fromEntries(structuralDetectors.map((d) => [d.meta.id, d.meta.config.parse({})]));
    expect(defaults).toEqual({
      TOOL_LOOP: { threshold: 3, window: 5 },
      TOOL_THRASHING: { min_alternations: 4 },
      LLM_TRUNCATION_LOOP: { threshold: 2 },
      RETRY_STORM: { threshold: 3 },
      EMPTY_LLM_RESPONSE: { missing_finish_reason: true },
      CASCADING_TOOL_FAILURE: { min_failures: 3, min_tools: 2 },
      SLOW_STEP: { tool_ms: 15_000, llm_ms: 30_000, baseline_multiplier: 2, high_factor: 2 },
      CONTEXT_BLOAT: { growth_factor: 3, min_llm_calls: 3, min_prompt_tokens: 2_000, baseline_multiplier: 2 },
      GOAL_ABANDONMENT: { min_llm_calls: 4 },
      REASONING_STALL: { ratio: 4, min_llm_calls: 5, baseline_multiplier: 2, high_factor: 2 },
      STEP_COUNT_INFLATION: { baseline_multiplier: 2 },
      FIRST_STEP_FAILURE: { max_step: 2 },
      RAG_EMPTY_RETRIEVAL: { min_relevance: 0.3 },
      TOOL_AVOIDANCE: { min_llm_calls: 2 },
      COST_SPIKE: { max_tokens: 50_000, baseline_multiplier: 3 },
      SESSION_LATENCY: { max_duration_ms: 300_000, baseline_multiplier: 3 },
      HARNESS_REJECTION: { min_rejections: 3, high_streak: 5 },
    });
  });
});

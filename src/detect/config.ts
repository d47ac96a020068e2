/**
 * The detectors' part of tracejury.yml: the settings every detector section takes, one agent
 * section's schema (`default:` or an agentId: a key per detector plus `inflation_factor`), and the
 * per-agent resolution (default ← agent ← the detector's own defaults) the runner uses. The whole
 * file (failOn, prices, tribunal, tiers, baselines and these sections) is composed in src/config/.
 */
import { z } from 'zod';
import { didYouMean } from '../util/nearest.js';
import { ONE_SHOT } from '../util/oneShot.js';
import type { Detector } from './detector.js';
import { own as ownKey } from '../util/dict.js';
import { quoted } from '../redact/safeText.js';

/**
 * The sections of a parsed config, as written (default ← agent inheritance is resolved from them).
 * The run's Config satisfies this; detect/ needs nothing else of it.
 */
export interface DetectorSections {
  sections: Record<string, Record<string, unknown>>;
}

/** Keys every detector section takes besides the detector's own settings. */
const CommonDetectorSettings = {
  enabled: z.boolean().default(true).describe('Run this detector'),
  shadow: z
    .boolean()
    .default(false)
    .describe('Report its signals, marked, but never fail a gate or annotate a PR'),
};

export function detectorSettingsSchema(d: Detector): z.ZodObject {
  return d.meta.config.extend(CommonDetectorSettings);
}

export function agentSectionSchema(list: readonly Detector[]) {
  const shape: Record<string, z.ZodType> = {
    inflation_factor: z
      .number()
      .positive()
      .optional()
      .describe(
        'Multiplier on the P75 baseline for this section, replacing each baseline detector’s own ' +
          'baseline_multiplier set at the same level or below (an agent’s own baseline_multiplier ' +
          'wins over a default-level inflation_factor)',
      ),
  };
  for (const d of list) {
    // `tool_loop:` with nothing under it is an empty section, as is `web:` or `default:`.
    // `fallback_failure: false` is short for `{ enabled: false }`. Read as the settings object, so
    // that a mistake inside it is named by its own key and line.
    shape[d.meta.configKey] = z
      .preprocess((v, ctx) => {
        if (typeof v === 'boolean') return { enabled: v };
        if (v !== null && v !== undefined && (typeof v !== 'object' || Array.isArray(v))) {
          ctx.addIssue({
            code: 'custom',
            message: "expected true, false or the detector's settings (enabled, shadow, …)",
          });
          return z.NEVER;
        }
        return v;
      }, detectorSettingsSchema(d).partial().strict())
      .nullable()
      .optional()
      .describe(d.meta.description);
  }
  return z.object(shape).strict();
}

export function detectorIdSchema(list: readonly Detector[]): z.ZodType<string> {
  const ids = list.map((d) => d.meta.id);
  if (ids.length === 0) return z.string();
  return z.enum(ids as [string, ...string[]], {
    error: (issue) => {
      const hint = typeof issue.input === 'string' ? didYouMean(issue.input, ids) : '';
      return `unknown detector id ${quoted(issue.input)}${hint}`;
    },
  });
}

export interface DetectorSettings {
  enabled: boolean;
  shadow: boolean;
  settings: Record<string, unknown>;
}

export interface AgentDetectorConfig {
  detector: Detector;
  enabled: boolean;
  shadow: boolean;
  settings: Record<string, unknown>;
}

export interface ResolvedAgentConfig {
  detectors: AgentDetectorConfig[];
  inflationFactor?: number;
}

/** default ← agent section, per detector, then the detector's own defaults. */
/** A detector's section as written: an object, `true`/`false` (enabled or not), or nothing. */
function sectionOf(v: unknown): Record<string, unknown> | undefined {
  if (typeof v === 'boolean') return { enabled: v };
  return (v ?? undefined) as Record<string, unknown> | undefined;
}

export function resolveAgentConfig(
  config: DetectorSections,
  agentId: string,
  list: readonly Detector[],
): ResolvedAgentConfig {
  const base = config.sections.default ?? {};
  const own = agentId === 'default' ? {} : (ownKey(config.sections, agentId) ?? {});
  const ownInflation = own.inflation_factor as number | undefined;
  const baseInflation = base.inflation_factor as number | undefined;
  const detectorsOut = list.map((detector) => {
    const key = detector.meta.configKey;
    const baseSection = sectionOf(base[key]);
    const ownSection = sectionOf(own[key]);
    const merged: Record<string, unknown> = { ...baseSection, ...ownSection };
    // Each level's inflation_factor replaces the baseline_multiplier of the detectors at its level
    // and below: agent inflation_factor > agent baseline_multiplier > default inflation_factor >
    // default baseline_multiplier > built-in. So an agent section overrides what it sets.
    if ('baseline_multiplier' in detectorSettingsSchema(detector).shape) {
      const multiplier =
        ownInflation ??
        (ownSection?.baseline_multiplier as number | undefined) ??
        baseInflation ??
        (baseSection?.baseline_multiplier as number | undefined);
      if (multiplier !== undefined) merged.baseline_multiplier = multiplier;
    }
    const parsed = detectorSettingsSchema(detector).parse(merged, ONE_SHOT) as Record<string, unknown> & {
      enabled: boolean;
      shadow: boolean;
    };
    const { enabled, shadow, ...settings } = parsed;
    return { detector, enabled, shadow, settings };
  });
  // The multipliers are resolved into each detector's settings above. `inflationFactor` (which the
  // runner hands detectors as an override of their setting) is only the agent's own, which wins over
  // everything anyway: a default-level one must not beat an agent's baseline_multiplier.
  return {
    detectors: detectorsOut,
    ...(ownInflation !== undefined ? { inflationFactor: ownInflation } : {}),
  };
}

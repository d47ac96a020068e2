/**
 * Runs the enabled detectors over one trace with the settings of its agent, applies waste
 * priority and suppression, and turns drafts into Signals. Pure apart from the detectors' own
 * computation: config, baselines and prices come in as arguments.
 *
 * The runner is on the hot path (every detector, every trace), so what depends only on the agent
 * (enabled detectors, their settings and contexts) is prepared once per agent, and per agent
 * version for the baseline detectors, rather than once per trace.
 */
import type { Pricer } from '../pricing/pricer.js';
import type { LoadedTrace } from '../trace/schema.js';
import { resolveAgentConfig, type DetectorSections } from './config.js';
import type { BaselineLookup, DetectContext, Detector, SignalDraft } from './detector.js';
import { detectors as builtInDetectors } from './registry.js';
import { GRAY_ZONE_LOWER } from './grayZone.js';
import type { Signal } from './signal.js';
import { applyWasteSuppression } from './suppression.js';

export interface DetectorRunnerOptions {
  config: DetectorSections;
  pricer: Pricer;
  baselines?: BaselineLookup;
  detectors?: readonly Detector[];
}

export interface DetectorFailure {
  detector: string;
  traceId: string;
  message: string;
}

export interface DetectorRunner {
  run(loaded: LoadedTrace): Signal[];
  /** Detectors that threw, so a bug in one never hides the others' findings. */
  failures: DetectorFailure[];
}

/** One enabled detector of one agent, with what it is called with. */
interface Entry {
  detector: Detector;
  meta: Detector['meta'];
  shadow: boolean;
  settings: Record<string, unknown>;
  /** The context, when it does not depend on the agent version (no baseline metric). */
  ctx: DetectContext | undefined;
  /** Index among the agent's baseline detectors, for those that have a baseline metric. */
  baselineIndex: number;
}

interface AgentPlan {
  entries: Entry[];
  inflationFactor: number | undefined;
  /** Contexts of the baseline detectors, per agent version ('' when none). */
  baselineContexts: Map<string, DetectContext[]>;
  baselineEntries: Entry[];
}

interface WasteResult {
  meta: Detector['meta'];
  signals: SignalDraft[];
  shadow: boolean;
}

export function createDetectorRunner(options: DetectorRunnerOptions): DetectorRunner {
  const list = options.detectors ?? builtInDetectors;
  const perAgent = new Map<string, AgentPlan>();
  const failures: DetectorFailure[] = [];
  const { pricer, baselines } = options;

  function planFor(agentId: string): AgentPlan {
    let plan = perAgent.get(agentId);
    if (plan) return plan;
    const resolved = resolveAgentConfig(options.config, agentId, list);
    const entries: Entry[] = [];
    const baselineEntries: Entry[] = [];
    for (const { detector, enabled, shadow, settings } of resolved.detectors) {
      if (!enabled) continue;
      const { meta } = detector;
      const entry: Entry = {
        detector,
        meta,
        shadow,
        settings,
        ctx: meta.baseline
          ? undefined
          : { config: settings, pricer, baseline: undefined, inflationFactor: resolved.inflationFactor },
        baselineIndex: meta.baseline ? baselineEntries.length : -1,
      };
      if (meta.baseline) baselineEntries.push(entry);
      entries.push(entry);
    }
    plan = {
      entries,
      inflationFactor: resolved.inflationFactor,
      baselineContexts: new Map(),
      baselineEntries,
    };
    perAgent.set(agentId, plan);
    return plan;
  }

  function baselineContexts(plan: AgentPlan, agentId: string, agentVersion: string | undefined) {
    const key = agentVersion ?? '';
    let contexts = plan.baselineContexts.get(key);
    if (!contexts) {
      contexts = plan.baselineEntries.map((e) => ({
        config: e.settings,
        pricer,
        baseline: baselines?.(agentId, agentVersion, e.meta.baseline!),
        inflationFactor: plan.inflationFactor,
      }));
      plan.baselineContexts.set(key, contexts);
    }
    return contexts;
  }

  function run({ trace, source }: LoadedTrace): Signal[] {
    const plan = planFor(trace.agentId);
    const out: Signal[] = [];
    let waste: WasteResult[] | undefined;
    let wasteSignals = 0;
    let versioned: DetectContext[] | undefined;
    const entries = plan.entries;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      const { meta } = entry;
      let ctx = entry.ctx;
      if (ctx === undefined) {
        versioned ??= baselineContexts(plan, trace.agentId, trace.agentVersion);
        ctx = versioned[entry.baselineIndex]!;
      }
      let drafts: SignalDraft[];
      try {
        drafts = entry.detector.detect(trace, ctx);
      } catch (err) {
        failures.push({
          detector: meta.id,
          traceId: trace.id,
          message: err instanceof Error ? err.message : String(err),
        });
        continue;
      }
      if (meta.kind === 'waste') {
        (waste ??= []).push({ meta, signals: drafts, shadow: entry.shadow });
        wasteSignals += drafts.length;
      } else {
        for (let k = 0; k < drafts.length; k++) {
          const s = finalise(drafts[k]!, meta, entry.shadow, trace.id, source.file);
          if (s.confidence >= GRAY_ZONE_LOWER) out.push(s);
        }
      }
    }
    // Suppression only changes signals, so a trace without waste signals needs none.
    if (waste !== undefined && wasteSignals > 0) {
      for (const { meta, signals, shadow } of applyWasteSuppression(waste)) {
        for (const d of signals) {
          const s = finalise(d, meta, shadow, trace.id, source.file);
          if (s.confidence >= GRAY_ZONE_LOWER) out.push(s);
        }
      }
    }
    return out;
  }

  return { run, failures };
}

/**
 * The Signal of a draft: the draft's own fields, then detector, traceId, severity, tier, shadow and
 * file (the key order of `{ ...draft, detector, … }`). Drafts are fresh objects the detector made
 * for this trace (waste drafts are copies made by suppression), so the fields are added in place
 * instead of copying the draft; a draft that cannot take them (frozen) is copied.
 */
function finalise(
  d: SignalDraft,
  meta: Detector['meta'],
  shadow: boolean,
  traceId: string,
  file: string,
): Signal {
  if (!Object.isExtensible(d)) {
    return {
      ...d,
      detector: meta.id,
      traceId,
      severity: d.severity ?? meta.severity,
      tier: meta.tier,
      shadow,
      file,
    };
  }
  const s = d as SignalDraft & Partial<Signal>;
  s.detector = meta.id;
  s.traceId = traceId;
  s.severity = d.severity ?? meta.severity;
  s.tier = meta.tier;
  s.shadow = shadow;
  s.file = file;
  return s as Signal;
}

/**
 * Runs the enabled detectors over one trace with the settings of its agent, applies waste
 * priority and suppression, and turns drafts into Signals. Pure apart from the detectors' own
 * computation: config, baselines and prices come in as arguments.
 *
 * The runner is on the hot path (every detector, every trace), so what depends only on the agent
 * (enabled detectors, their settings and contexts) is prepared once per agent, and per agent
 * version for the baseline detectors, rather than once per trace.
 *
 * With `deferMissingBaselines`, a baseline detector whose agent has no baseline in `baselines` is
 * not run with its static fallback: `run` leaves it out, and `runDeferred` runs it once the run has
 * gathered a baseline of its own (the agent's good runs in the input, see analyze.ts), or with its
 * static fallback when there is still none.
 */
import type { Pricer } from '../pricing/pricer.js';
import type { LoadedTrace, Trace } from '../trace/schema.js';
import { resolveAgentConfig, type DetectorSections } from './config.js';
import type { BaselineLookup, BaselineMetric, DetectContext, Detector, SignalDraft } from './detector.js';
import { detectors as builtInDetectors } from './registry.js';
import { GRAY_ZONE_LOWER } from './grayZone.js';
import type { Signal } from './signal.js';
import { chargesCalls, ruleCalls } from './suppression.js';
import { settleCharges } from './wasteCharges.js';

export interface DetectorRunnerOptions {
  config: DetectorSections;
  pricer: Pricer;
  baselines?: BaselineLookup;
  detectors?: readonly Detector[];
  /** Leave baseline detectors whose agent has no baseline in `baselines` to `runDeferred`. */
  deferMissingBaselines?: boolean;
}

export interface DetectorFailure {
  detector: string;
  traceId: string;
  message: string;
}

export interface DetectorRunner {
  run(loaded: LoadedTrace): Signal[];
  /** Whether `run` left baseline detectors of this trace's agent and version for `runDeferred`. */
  deferred(trace: Pick<Trace, 'agentId' | 'agentVersion'>): boolean;
  /**
   * The baseline detectors `run` left out for this trace, against `baselines` (their static
   * fallback where it has none). `loaded` need only hold what the baseline detectors read (see
   * baselineSkeleton.ts).
   */
  runDeferred(loaded: LoadedTrace, baselines: BaselineLookup): Signal[];
  /**
   * Who charges each wasted call again, for the signals' confidences as they are now: once
   * escalation has made gray-zone signals findings (or dropped them), a call two of them see is
   * still charged once (suppression.ts). Signals of detectors that charge no waste pass unchanged,
   * in their order.
   */
  settleWaste(trace: Trace, signals: readonly Signal[]): Signal[];
  /** The enabled baseline detectors of an agent and the metric each compares, in run order. */
  baselineDetectors(agentId: string): { detector: string; metric: BaselineMetric }[];
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

/**
 * Contexts of an agent version's baseline detectors, by baseline index; undefined for a detector
 * deferred to `runDeferred` (no baseline yet).
 */
type VersionContexts = (DetectContext | undefined)[];

interface AgentPlan {
  entries: Entry[];
  inflationFactor: number | undefined;
  /** Contexts of the baseline detectors, per agent version ('' when none). */
  baselineContexts: Map<string, VersionContexts>;
  baselineEntries: Entry[];
}

/** A detector that charges waste, its signals on one trace, and where they go among the trace's signals. */
interface WasteResult {
  meta: Detector['meta'];
  signals: SignalDraft[];
  shadow: boolean;
  /** Index in the trace's signals the detector's come at (entry order). */
  at: number;
}

export function createDetectorRunner(options: DetectorRunnerOptions): DetectorRunner {
  const list = options.detectors ?? builtInDetectors;
  const perAgent = new Map<string, AgentPlan>();
  const failures: DetectorFailure[] = [];
  const { pricer, baselines } = options;
  // Detectors that charge waste claim calls in priority order among themselves; only the others are deferred.
  const deferrable = (e: Entry) => options.deferMissingBaselines === true && !chargesWaste(e.meta);

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

  function baselineContext(
    plan: AgentPlan,
    entry: Entry,
    agentId: string,
    agentVersion: string | undefined,
    lookup: BaselineLookup | undefined,
  ): DetectContext {
    return {
      config: entry.settings,
      pricer,
      baseline: lookup?.(agentId, agentVersion, entry.meta.baseline!),
      inflationFactor: plan.inflationFactor,
    };
  }

  function baselineContexts(plan: AgentPlan, agentId: string, agentVersion: string | undefined) {
    const key = agentVersion ?? '';
    let contexts = plan.baselineContexts.get(key);
    if (!contexts) {
      contexts = plan.baselineEntries.map((e) => {
        const ctx = baselineContext(plan, e, agentId, agentVersion, baselines);
        return ctx.baseline === undefined && deferrable(e) ? undefined : ctx;
      });
      plan.baselineContexts.set(key, contexts);
    }
    return contexts;
  }

  /** The detector's signals on the trace; undefined when it threw (recorded in `failures`). */
  function detectOn(entry: Entry, trace: Trace, ctx: DetectContext): SignalDraft[] | undefined {
    try {
      return entry.detector.detect(trace, ctx);
    } catch (err) {
      failures.push({
        detector: entry.meta.id,
        traceId: trace.id,
        message: err instanceof Error ? err.message : String(err),
      });
      return undefined;
    }
  }

  /** Runs one non-waste detector and adds its signals above the gray zone's floor to `out`. */
  function runOne(entry: Entry, loaded: LoadedTrace, ctx: DetectContext, out: Signal[]): void {
    const { trace, source } = loaded;
    const drafts = detectOn(entry, trace, ctx);
    if (drafts === undefined) return;
    for (let k = 0; k < drafts.length; k++) {
      const s = finalise(drafts[k]!, entry.meta, entry.shadow, trace.id, source.file);
      if (s.confidence >= GRAY_ZONE_LOWER) out.push(s);
    }
  }

  function run(loaded: LoadedTrace): Signal[] {
    const { trace, source } = loaded;
    const plan = planFor(trace.agentId);
    const out: Signal[] = [];
    let waste: WasteResult[] | undefined;
    let versioned: VersionContexts | undefined;
    const entries = plan.entries;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      const { meta } = entry;
      let ctx = entry.ctx;
      if (ctx === undefined) {
        versioned ??= baselineContexts(plan, trace.agentId, trace.agentVersion);
        ctx = versioned[entry.baselineIndex];
        // Deferred: runDeferred runs it once the run has a baseline for it.
        if (ctx === undefined) continue;
      }
      if (!chargesWaste(meta)) {
        runOne(entry, loaded, ctx, out);
        continue;
      }
      const drafts = detectOn(entry, trace, ctx);
      // A detector that threw, or found nothing, neither claims nor charges anything.
      if (drafts === undefined || drafts.length === 0) continue;
      (waste ??= []).push({ meta, signals: drafts, shadow: entry.shadow, at: out.length });
    }
    // Suppression and pricing only change signals, so a trace without waste signals needs neither.
    if (waste !== undefined) {
      // Each detector's signals go where it comes in entry order (results are in that order).
      const merged: Signal[] = [];
      let from = 0;
      for (const { meta, signals, shadow, at } of settleCharges(trace, waste, pricer)) {
        for (; from < at; from++) merged.push(out[from]!);
        for (const d of signals) {
          const s = finalise(d, meta, shadow, trace.id, source.file);
          if (s.confidence >= GRAY_ZONE_LOWER) merged.push(s);
        }
      }
      for (; from < out.length; from++) merged.push(out[from]!);
      return merged;
    }
    return out;
  }

  function settleWaste(trace: Trace, signals: readonly Signal[]): Signal[] {
    const entries = planFor(trace.agentId).entries;
    /** Per detector that charges waste: its signals and their indices in `signals`. */
    const byDetector = new Map<string, { result: WasteResult; indices: number[] }>();
    signals.forEach((s, i) => {
      let group = byDetector.get(s.detector);
      if (!group) {
        const entry = entries.find((e) => e.meta.id === s.detector);
        if (!entry || !chargesWaste(entry.meta)) return;
        group = { result: { meta: entry.meta, signals: [], shadow: entry.shadow, at: 0 }, indices: [] };
        byDetector.set(s.detector, group);
      }
      group.result.signals.push(unsettled(s, group.result.meta));
      group.indices.push(i);
    });
    if (byDetector.size === 0) return [...signals];
    const groups = [...byDetector.values()];
    const settled = settleCharges(
      trace,
      groups.map((g) => g.result),
      pricer,
    );
    const out = [...signals];
    settled.forEach((r, k) => r.signals.forEach((s, j) => (out[groups[k]!.indices[j]!] = s as Signal)));
    return out;
  }

  function deferred({ agentId, agentVersion }: Pick<Trace, 'agentId' | 'agentVersion'>): boolean {
    if (!options.deferMissingBaselines) return false;
    const plan = planFor(agentId);
    return baselineContexts(plan, agentId, agentVersion).some((c) => c === undefined);
  }

  function runDeferred(loaded: LoadedTrace, lookup: BaselineLookup): Signal[] {
    const { trace } = loaded;
    const plan = planFor(trace.agentId);
    const contexts = baselineContexts(plan, trace.agentId, trace.agentVersion);
    const out: Signal[] = [];
    for (const entry of plan.baselineEntries) {
      if (contexts[entry.baselineIndex] !== undefined) continue;
      runOne(entry, loaded, baselineContext(plan, entry, trace.agentId, trace.agentVersion, lookup), out);
    }
    return out;
  }

  function baselineDetectors(agentId: string) {
    return planFor(agentId).baselineEntries.map((e) => ({ detector: e.meta.id, metric: e.meta.baseline! }));
  }

  return { run, deferred, runDeferred, settleWaste, baselineDetectors, failures };
}

/** A detector that takes part in who charges a wasted call: a waste detector, or one with a priority. */
const chargesWaste = (meta: Detector['meta']): boolean =>
  meta.kind === 'waste' || meta.priority !== undefined;

/**
 * A signal as its detector made it, for charging again: no suppression mark, and a structural
 * signal's rule calls all listed in `wastedSteps` (suppression.ts splits them again).
 */
function unsettled(s: Signal, meta: Detector['meta']): Signal {
  const { suppressedBy: _mark, ...rest } = s;
  if (!chargesCalls(meta)) return rest;
  const { wasteChargedBy: _by, ...evidence } = s.evidence ?? {};
  return { ...rest, evidence: { ...evidence, wastedSteps: ruleCalls(s) } };
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

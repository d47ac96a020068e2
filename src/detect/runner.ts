/**
 * Runs the enabled detectors over one trace with the settings of its agent, applies waste
 * priority and suppression, and turns drafts into Signals. Pure apart from the detectors' own
 * computation: config, baselines and prices come in as arguments.
 */
import type { BaselineLookup } from '../baseline/store.js';
import type { Pricer } from '../pricing/pricer.js';
import type { LoadedTrace } from '../trace/schema.js';
import { resolveAgentConfig, type Config, type ResolvedAgentConfig } from './config.js';
import type { Detector, SignalDraft } from './detector.js';
import { detectors as builtInDetectors } from './registry.js';
import { GRAY_ZONE_LOWER } from './grayZone.js';
import type { Signal } from './signal.js';
import { applyWasteSuppression } from './suppression.js';

export interface DetectorRunnerOptions {
  config: Config;
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

export function createDetectorRunner(options: DetectorRunnerOptions): DetectorRunner {
  const list = options.detectors ?? builtInDetectors;
  const perAgent = new Map<string, ResolvedAgentConfig>();
  const failures: DetectorFailure[] = [];

  const agentConfig = (agentId: string) => {
    let resolved = perAgent.get(agentId);
    if (!resolved) {
      resolved = resolveAgentConfig(options.config, agentId, list);
      perAgent.set(agentId, resolved);
    }
    return resolved;
  };

  function run({ trace, source }: LoadedTrace): Signal[] {
    const resolved = agentConfig(trace.agentId);
    const out: Signal[] = [];
    const waste: { meta: Detector['meta']; signals: SignalDraft[] }[] = [];
    const shadowOf = new Map<string, boolean>();
    for (const { detector, enabled, shadow, settings } of resolved.detectors) {
      if (!enabled) continue;
      const { meta } = detector;
      shadowOf.set(meta.id, shadow);
      let drafts: SignalDraft[];
      try {
        drafts = detector.detect(trace, {
          config: settings,
          pricer: options.pricer,
          baseline: meta.baseline
            ? options.baselines?.(trace.agentId, trace.agentVersion, meta.baseline)
            : undefined,
          inflationFactor: resolved.inflationFactor,
        });
      } catch (err) {
        failures.push({
          detector: meta.id,
          traceId: trace.id,
          message: err instanceof Error ? err.message : String(err),
        });
        continue;
      }
      if (meta.kind === 'waste') waste.push({ meta, signals: drafts });
      else out.push(...drafts.map((d) => finalise(d, meta, shadow)));
    }
    for (const { meta, signals } of applyWasteSuppression(waste)) {
      out.push(...signals.map((d) => finalise(d, meta, shadowOf.get(meta.id) ?? false)));
    }
    return out.filter((s) => s.confidence >= GRAY_ZONE_LOWER);

    function finalise(d: SignalDraft, meta: Detector['meta'], shadow: boolean): Signal {
      return {
        ...d,
        detector: meta.id,
        traceId: trace.id,
        severity: d.severity ?? meta.severity,
        tier: meta.tier,
        shadow,
        file: source.file,
      };
    }
  }

  return { run, failures };
}

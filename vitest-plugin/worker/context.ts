/**
 * What one test worker shares across its tests: the settings the plugin provided, the trace
 * analyser (config, prices, baselines and detectors prepared once, not per `expect`), the tribunal
 * session (one cassette and circuit breaker per worker), and where each loaded trace came from.
 */
import path from 'node:path';
import {
  createTraceAnalyser,
  createTribunalSession,
  tribunalSettingsFor,
  type LoadedTrace,
  type Trace,
  type TraceAnalyser,
  type TraceAnalysis,
  type TribunalSession,
} from 'tracejury';
import type { WorkerSettings } from '../shared/workerSettings.js';

let settings: WorkerSettings | undefined;
let analyser: TraceAnalyser | undefined;
let tribunal: TribunalSession | undefined;
/** The loaded form (file, format) of traces handed to tests, so reports say where each came from. */
const sources = new WeakMap<object, LoadedTrace>();

export function configureWorker(given: WorkerSettings | undefined): void {
  settings = given;
  analyser = undefined;
  tribunal = undefined;
}

/** The settings, or those of a project that wired the matchers by hand (no plugin): cwd, tracejury.yml there. */
export function workerSettings(): WorkerSettings {
  if (!settings) {
    const root = process.cwd();
    settings = { root, stateDir: path.join(root, '.tracejury') };
  }
  return settings;
}

export function traceAnalyser(): TraceAnalyser {
  if (!analyser) {
    const s = workerSettings();
    analyser = createTraceAnalyser({
      cwd: s.root,
      stateDir: s.stateDir,
      ...(s.configFile ? { configFile: s.configFile } : {}),
      ...(s.agent ? { agent: s.agent } : {}),
      ...(s.defaultModel ? { defaultModel: s.defaultModel } : {}),
    });
  }
  return analyser;
}

export function tribunalSession(): TribunalSession {
  if (!tribunal) {
    const s = workerSettings();
    const fromConfig = tribunalSettingsFor(traceAnalyser().config, s.stateDir, s.root);
    const cassette =
      fromConfig.cassette === false
        ? false
        : {
            path: fromConfig.cassette?.path ?? path.join(s.stateDir, 'cassette.jsonl'),
            mode: s.cassette ?? fromConfig.cassette?.mode ?? 'auto',
          };
    tribunal = createTribunalSession({ ...fromConfig, cassette });
  }
  return tribunal;
}

/** Cassette writes of this worker on disk: at the end of its tests. */
export async function flushTribunal(): Promise<void> {
  await tribunal?.flush();
}

export function rememberSource(loaded: LoadedTrace): void {
  sources.set(loaded.trace, loaded);
}

export function analyse(trace: Trace | LoadedTrace | Record<string, unknown>): TraceAnalysis {
  const loaded = sources.get(trace);
  return traceAnalyser().analyse(loaded ?? trace);
}

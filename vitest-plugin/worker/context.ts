/**
 * What one test worker shares across its tests: the settings the plugin provided, the trace
 * analyser (config, prices, baselines and detectors prepared once, not per `expect`), the tribunal
 * session (one cassette and circuit breaker per worker), and where each loaded trace came from.
 */
import path from 'node:path';
import {
  BUILT_IN_DETECTOR_IDS,
  createTraceAnalyser,
  createTribunalSession,
  detectors as builtInDetectors,
  tribunalSettingsFor,
  type Detector,
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
/** Detectors of the project's own (registerDetectors), run beside the built-in ones. */
const customDetectors: Detector[] = [];
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

/**
 * Adds a project's own detectors (made with `defineDetector`) to the ones the matchers run, for the
 * rest of this worker: call it in a setup file. Their ids are then accepted by `toHaveSignal`; an id
 * that is neither built in nor registered is an error there.
 */
export function registerDetectors(...detectors: Detector[]): void {
  for (const d of detectors) {
    const id = (d as Partial<Detector> | undefined)?.meta?.id;
    if (typeof id !== 'string' || typeof d.detect !== 'function')
      throw new TypeError(
        'registerDetectors: expected detectors made with defineDetector({ meta: { id, … }, detect })',
      );
    if ((BUILT_IN_DETECTOR_IDS as readonly string[]).includes(id))
      throw new TypeError(`registerDetectors: ${id} is a built-in detector's id; give yours another`);
    const existing = customDetectors.findIndex((c) => c.meta.id === id);
    if (existing === -1) customDetectors.push(d);
    else customDetectors[existing] = d;
  }
  analyser = undefined;
}

/** Every detector id a matcher may name: the built-in ones and those registered. */
export function knownDetectorIds(): string[] {
  return [...BUILT_IN_DETECTOR_IDS, ...customDetectors.map((d) => d.meta.id)];
}

export function traceAnalyser(): TraceAnalyser {
  if (!analyser) {
    const s = workerSettings();
    analyser = createTraceAnalyser({
      cwd: s.root,
      stateDir: s.stateDir,
      ...(customDetectors.length > 0 ? { detectors: [...builtInDetectors, ...customDetectors] } : {}),
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

/**
 * What every run of the detectors needs before its first trace, made one way for `analyze()` (a
 * whole input) and for the trace analyser (one trace at a time, the Vitest matchers): the config,
 * the pricer with its default model checked, the baselines and the detector runner.
 */
import path from 'node:path';
import {
  DEFAULT_BASELINE_FILE,
  emptyBaselines,
  knownBaselines,
  readBaselineFile,
  type BaselineFile,
} from './baseline/store.js';
import { baselinesFromReport } from './baseline/fromReport.js';
import type { BaselineLookup } from './detect/detector.js';
import type { Report } from './report/schema.js';
import { ConfigError, configFromObject, loadConfig, type Config } from './config/config.js';
import { realPathInsideSync } from './util/realPath.js';
import type { Detector } from './detect/detector.js';
import { createDetectorRunner, type DetectorRunner } from './detect/runner.js';
import { nearestModel } from './pricing/modelNames.js';
import { createPricer, type PriceOverrides, type Pricer } from './pricing/pricer.js';
import { UsageError } from './trace/paths.js';
import { DEFAULT_CASSETTE_PATH } from './judge/cassette.js';
import { settingsFromConfig } from './judge/config.js';
import type { TribunalSettings } from './judge/tribunal.js';

export const DEFAULT_STATE_DIR = '.tracejury';

export interface RunSetupOptions {
  /** A parsed config, or the same settings as a plain object; otherwise `configFile`, otherwise tracejury.yml in cwd. */
  config?: Config | Record<string, unknown>;
  configFile?: string;
  cwd: string;
  stateDir?: string;
  /** Baselines to use instead of `<stateDir>/baselines.json`; `false` for static thresholds only. */
  baselines?: BaselineFile | false;
  detectors?: readonly Detector[];
  defaultModel?: string;
  /**
   * The base branch's report: its good runs (baseline/fromReport.ts) are consulted after the store
   * for agents the store has too few runs of. Ignored when `baselines` is false.
   */
  baseReport?: Report;
  /**
   * The caller gathers the input's own good runs as baselines (analyze()): unless config's
   * `baselines.fromInput` is false or `baselines` is false, the runner leaves the baseline
   * detectors of agents that neither the store nor the base report has a baseline for to the end
   * of the run (`runner.runDeferred`).
   */
  inputBaselines?: boolean;
}

export interface RunSetup {
  config: Config;
  prices: PriceOverrides;
  pricer: Pricer;
  stateDir: string;
  store: BaselineFile;
  /** The base report's good runs, when one was given. */
  baseReportBaselines?: BaselineFile;
  /** The baselines known before the run: the store's, then the base report's. */
  baselines: BaselineLookup;
  /** Whether the runner defers baseline detectors to the input's own baselines. */
  deferring: boolean;
  runner: DetectorRunner;
}

/** A config parsed by parseConfig / loadConfig, or one given as a plain object (checked here). */
export function configOf(given: Config | Record<string, unknown>): Config {
  const parsed = given as Partial<Config>;
  const isParsed =
    Array.isArray(parsed.failOn) && Array.isArray(parsed.warnings) && typeof parsed.sections === 'object';
  return isParsed ? (given as Config) : configFromObject(given);
}

export function prepareRun(options: RunSetupOptions): RunSetup {
  const { cwd } = options;
  if (options.config && options.configFile)
    throw new TypeError('give options.config or options.configFile, not both');
  const config = options.config ? configOf(options.config) : loadConfig(options.configFile, cwd);
  const prices: PriceOverrides = options.defaultModel
    ? ({ ...config.prices, defaultModel: options.defaultModel } as PriceOverrides)
    : config.prices;
  const pricer = createPricer(prices);
  if (prices.defaultModel !== undefined && !pricer.rates(prices.defaultModel)) {
    const where = options.defaultModel
      ? '--default-model'
      : `${config.file ?? 'config'}: prices.defaultModel`;
    const hint = nearestModel(
      prices.defaultModel,
      Object.keys(prices).filter((k) => k !== 'defaultModel'),
    );
    throw new UsageError(
      `${where} ${prices.defaultModel}: the price table does not know this model, and prices: does not price it` +
        (hint
          ? ` — did you mean "${hint}"?`
          : '; name a model the table knows (e.g. gpt-4o-mini) or add its prices under prices:'),
    );
  }
  const stateDir = options.stateDir ?? path.join(cwd, DEFAULT_STATE_DIR);
  const store =
    options.baselines === false
      ? emptyBaselines()
      : (options.baselines ?? readBaselineFile(path.join(stateDir, DEFAULT_BASELINE_FILE)));
  const fromRun = options.baselines !== false;
  const baseReportBaselines =
    fromRun && options.baseReport
      ? baselinesFromReport(options.baseReport, config.baselines.window)
      : undefined;
  const deferring = fromRun && options.inputBaselines === true && config.baselines.fromInput;
  const baselines = knownBaselines(store, baseReportBaselines, config.baselines);
  const runner = createDetectorRunner({
    config,
    pricer,
    baselines,
    detectors: options.detectors,
    deferMissingBaselines: deferring,
  });
  return {
    config,
    prices,
    pricer,
    stateDir,
    store,
    ...(baseReportBaselines ? { baseReportBaselines } : {}),
    baselines,
    deferring,
    runner,
  };
}

/**
 * The tribunal settings of a config (its `tribunal:` section), with the cassette kept with the rest
 * of the state (`<stateDir>/cassette.jsonl`) unless the config names another place. `{}` when the
 * config has no tribunal section.
 */
export function tribunalSettingsFor(config: Config, stateDir: string, cwd: string): TribunalSettings {
  if (!config.tribunal) return {};
  const settings = settingsFromConfig(config.tribunal);
  const given = settings.cassette;
  const cassette =
    given === false || given === undefined
      ? given
      : {
          ...given,
          path:
            given.path === undefined || given.path === DEFAULT_CASSETTE_PATH
              ? path.join(stateDir, 'cassette.jsonl')
              : configuredCassettePath(config, given.path, cwd),
        };
  return { ...settings, ...(cassette !== undefined ? { cassette } : {}) };
}

/**
 * The cassette path tracejury.yml names, resolved in `cwd` and held inside it by its real path:
 * the schema refuses `../` and absolute paths, and a link in the checkout (`.tracejury → /tmp/x`)
 * must not take the run's reads and rewrites of the cassette outside the working directory either.
 */
function configuredCassettePath(config: Config, given: string, cwd: string): string {
  const resolved = path.resolve(cwd, given);
  let inside: boolean;
  try {
    inside = realPathInsideSync(resolved, cwd).inside;
  } catch {
    // A link loop or an unreadable folder: opening the cassette says why, as a judge error.
    return resolved;
  }
  if (!inside)
    throw new ConfigError(
      `${config.file ?? 'config'}: tribunal.cassette.path: ${JSON.stringify(given)} leads outside the working directory through a link; keep the cassette in a folder of the checkout`,
    );
  return resolved;
}

/**
 * `tracejury(options)`: the Vitest plugin. Its `config()` hook reads tracejury.yml with the CLI's
 * config module (so a bad key fails at startup, with its line), adds the setup file by resolved
 * path and hands the settings to the workers through `provide`. The reporter is added in
 * `configureVitest`, after Vitest has resolved its reporters from the config and the command line
 * and before it creates them: the user's reporters, Vitest's default and a `--reporter` flag all
 * stay, and the tracejury report is written whatever they are.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cassetteModeFromEnv, DEFAULT_STATE_DIR, loadConfig } from 'tracejury';
import { PROVIDE_KEY, type WorkerSettings } from '../shared/workerSettings.js';
import { parsePluginOptions, type TracejuryPluginOptions } from './options.js';
import { TracejuryReporter, type AgentSections } from '../reporter/reporter.js';
import { runCommandOf } from './runCommand.js';

/**
 * The setup file each test worker loads, at the plugin's root (vitest-plugin/setup.ts, built to
 * build/vitest-plugin/setup.js): setup.js when built, setup.ts when this runs from source.
 */
const SETUP_FILE = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? '../setup.ts' : '../setup.js', import.meta.url),
);

const DEFAULT_REPORT_PATH = path.join(DEFAULT_STATE_DIR, 'report.json');

/** The HTML report beside the JSON one (`report.json` → `report.html`), or in the state dir without one. */
export function htmlReportPath(report: string | false, html: string | false | undefined): string | false {
  if (html !== undefined) return html;
  const json = report === false ? DEFAULT_REPORT_PATH : report;
  const ext = path.extname(json);
  return `${ext ? json.slice(0, -ext.length) : json}.html`;
}

interface UserConfigLike {
  root?: string;
  test?: { root?: string; includeTaskLocation?: boolean; setupFiles?: string | string[] };
}

interface VitestLike {
  config: { root: string; reporters: unknown[] };
}

/** A test project as configureVitest sees it: its resolved config, setup files as absolute paths. */
interface TestProjectLike {
  config: { setupFiles: string[] };
}

/** What Vite and Vitest need of a plugin, declared here so one type serves Vitest 4 and 5. */
export interface TracejuryVitePlugin {
  name: 'tracejury';
  config(config: UserConfigLike): {
    test: { provide: Record<string, WorkerSettings>; includeTaskLocation: boolean };
  };
  configureVitest(context: { vitest: VitestLike; project: TestProjectLike }): void;
}

/**
 * Puts the plugin's setup file first in a resolved project's setup files, unless it is there. The
 * config hook adds it to the config as written, but Vitest 5 resolves an inline project that
 * shares the declaring config's Vite server (`sharedViteServer`, on by default) from that config's
 * test options as they were before any plugin's config hook ran, so its projects would run without
 * the setup file: no tracer provider before the test file's instrumentations (which then record
 * nothing), no matchers. configureVitest sees every project, however it was resolved.
 */
export function ensureSetupFile(project: TestProjectLike): void {
  const files = project.config.setupFiles;
  if (files.includes(SETUP_FILE)) return;
  project.config.setupFiles = [SETUP_FILE, ...files];
}

/** Vitest instances that have the reporter: the plugin may sit in several projects of one run. */
const withReporter = new WeakSet<object>();

export function tracejury(options: TracejuryPluginOptions = {}): TracejuryVitePlugin {
  const parsed = parsePluginOptions(options);
  // TRACEJURY_CASSETTE over the option and the config: recording is `TRACEJURY_CASSETTE=record npx vitest run`.
  // A value that is no mode fails here, at startup, with the nearest one.
  const cassette = cassetteModeFromEnv() ?? parsed.cassette;
  let failOn: ReturnType<typeof loadConfig>['failOn'] = [];
  let agentSections: AgentSections = { sections: {} };
  let stateDir = '';
  let root = process.cwd();
  return {
    name: 'tracejury',
    config(config) {
      root = path.resolve(config.test?.root ?? config.root ?? process.cwd());
      const configFile = parsed.config ? path.resolve(root, parsed.config) : undefined;
      // The CLI's own reader: unknown keys, bad values and YAML errors fail here, with file and line.
      const loaded = loadConfig(configFile, root);
      failOn = loaded.failOn;
      agentSections = {
        sections: loaded.sections,
        ...(loaded.sectionLines ? { sectionLines: loaded.sectionLines } : {}),
        ...(loaded.file ? { file: loaded.file } : {}),
      };
      stateDir = path.resolve(root, parsed.stateDir ?? DEFAULT_STATE_DIR);
      const settings: WorkerSettings = {
        root,
        ...(loaded.file ? { configFile: path.resolve(root, loaded.file) } : {}),
        stateDir,
        ...(parsed.passRate !== undefined ? { passRate: parsed.passRate } : {}),
        ...(parsed.agent ? { agent: parsed.agent } : {}),
        ...(parsed.defaultModel ? { defaultModel: parsed.defaultModel } : {}),
        ...(cassette ? { cassette } : {}),
        saveTraces: parsed.saveTraces ?? 'failed',
        runCommand: runCommandOf(),
      };
      // Ours first, before the user's setup files: it registers captureTrace's tracer provider, and
      // an instrumentation made before any provider is registered may never record
      // (capture/globalTracing.ts). A returned setupFiles would be appended after theirs.
      config.test ??= {};
      const userSetup = config.test.setupFiles ?? [];
      config.test.setupFiles = [SETUP_FILE, ...(Array.isArray(userSetup) ? userSetup : [userSetup])];
      return {
        test: {
          provide: { [PROVIDE_KEY]: settings },
          // Each test's line, so the report (and the Action's annotations) point at the test itself.
          includeTaskLocation: config.test?.includeTaskLocation ?? true,
        },
      };
    },
    configureVitest({ vitest, project }) {
      ensureSetupFile(project);
      if (withReporter.has(vitest)) return;
      withReporter.add(vitest);
      vitest.config.reporters.push(
        new TracejuryReporter({
          root: vitest.config.root ?? root,
          report: parsed.report ?? DEFAULT_REPORT_PATH,
          html: htmlReportPath(parsed.report ?? DEFAULT_REPORT_PATH, parsed.html),
          summary: parsed.summary ?? true,
          failOn,
          agentSections,
          stateDir: stateDir || path.resolve(root, parsed.stateDir ?? DEFAULT_STATE_DIR),
        }),
      );
    },
  };
}

/**
 * The settings every test worker receives from the plugin in Vitest's main process (through
 * Vitest's `provide` / `inject`, so plain JSON): the plugin's options with paths resolved
 * against the project root.
 */
export interface WorkerSettings {
  root: string;
  configFile?: string;
  stateDir: string;
  passRate?: number;
  agent?: string;
  defaultModel?: string;
  cassette?: 'auto' | 'replay' | 'record';
  /** Which tests' traces are written to `<stateDir>/traces/` (default 'failed'). */
  saveTraces?: 'failed' | 'all' | false;
  /**
   * How this run was started, as a command to type (`npx vitest run --config x`), without file
   * filters: a cassette miss says to run it with TRACEJURY_CASSETTE=record and the test's file.
   */
  runCommand?: string;
}

export const PROVIDE_KEY = 'tracejury';

/** The folder under stateDir where the workers save traces and the reporter clears them at a run's start. */
export const TRACES_DIR = 'traces';

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
}

export const PROVIDE_KEY = 'tracejury';

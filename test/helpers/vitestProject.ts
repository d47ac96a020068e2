/**
 * A small Vitest project in a temporary directory, run for real: `vitest run` in a child process,
 * as a user's CI runs it. Its node_modules links every package of this repository's (so the
 * project's `vitest` is the one under test: 4 on Node 20, 5 on Node 24 in CI) and `tracejury` to
 * this checkout, whose build/ must be current (`npm test` builds first).
 */
import { spawn } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const VITEST_BIN = path.join(REPO, 'node_modules', 'vitest', 'vitest.mjs');

export interface Project {
  dir: string;
  write(file: string, text: string): void;
  run(args?: string[], options?: { env?: Record<string, string>; timeoutMs?: number }): Promise<RunResult>;
  readReport(file?: string): ReportLike;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr, colour codes removed. */
  output: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ReportLike = any;

function linkNodeModules(dir: string): void {
  const target = path.join(dir, 'node_modules');
  mkdirSync(target);
  const source = path.join(REPO, 'node_modules');
  for (const entry of readdirSync(source)) {
    if (entry === '.bin' || entry === '.package-lock.json') continue;
    symlinkSync(path.join(source, entry), path.join(target, entry));
  }
  symlinkSync(REPO, path.join(target, 'tracejury'));
}

export function createProject(files: Record<string, string>): Project {
  const dir = mkdtempSync(path.join(tmpdir(), 'tracejury-vitest-'));
  linkNodeModules(dir);
  const write = (file: string, text: string) => {
    const full = path.join(dir, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  };
  write('package.json', JSON.stringify({ name: 'fixture', private: true, type: 'module' }));
  for (const [file, text] of Object.entries(files)) write(file, text);
  return {
    dir,
    write,
    run(args = [], options = {}) {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [VITEST_BIN, 'run', ...args], {
          cwd: dir,
          env: { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0', ...options.env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(
            new Error(
              `vitest run in ${dir} did not end within ${options.timeoutMs ?? 60_000} ms\n${stdout}\n${stderr}`,
            ),
          );
        }, options.timeoutMs ?? 60_000);
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(timer);
          const output = `${stdout}\n${stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
          resolve({ code, stdout, stderr, output });
        });
      });
    },
    readReport(file = '.tracejury/report.json') {
      const full = path.join(dir, file);
      if (!existsSync(full)) throw new Error(`no report at ${full}`);
      return JSON.parse(readFileSync(full, 'utf8'));
    },
  };
}

/** A vitest.config.ts that uses the plugin with these options (a JS object literal). */
export function configWith(options = '{}', extra = ''): string {
  return `import { defineConfig } from 'vitest/config';
import { tracejury } from 'tracejury/vitest';
export default defineConfig({ plugins: [tracejury(${options})], test: { ${extra} } });
`;
}

/** A native trace (JSON) whose agent calls the same tool with the same args `loops` times. */
export function nativeTrace(id: string, loops: number): string {
  return JSON.stringify({
    id,
    agentId: 'support',
    status: 'ok',
    input: 'What is the weather in Paris?',
    output: 'It is sunny in Paris.',
    steps: [
      {
        type: 'llm',
        model: 'gpt-4o',
        input: 'weather?',
        output: 'calling tool',
        usage: { inputTokens: 900, outputTokens: 40 },
      },
      ...Array.from({ length: loops }, () => ({
        type: 'tool',
        name: 'get_weather',
        args: { city: 'Paris' },
        status: 'ok',
        result: 'sunny',
      })),
      {
        type: 'llm',
        model: 'gpt-4o',
        input: 'answer',
        output: 'It is sunny in Paris.',
        usage: { inputTokens: 950, outputTokens: 20 },
      },
    ],
  });
}

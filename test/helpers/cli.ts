/** Runs the `tracejury` command in-process with captured streams and no environment (no API keys). */
import { runCli } from '../../src/cli/main.js';

export async function cli(args: string[], cwd: string, env: Record<string, string | undefined> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd,
    env,
  });
  return { code, stdout, stderr };
}

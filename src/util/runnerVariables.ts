/**
 * Environment variables that belong to the CI runner or to the Action itself, which tracejury never
 * reads as an API key: a config that named one (`apiKeyEnv: INPUT_GITHUB-TOKEN` beside a `baseURL`
 * of its own) would hand the job's GitHub token, the runtime token of the artifact and cache
 * services or an OIDC request token to whatever endpoint it chose. Refused by name, whatever the
 * value: GITHUB_* (the job's token and context), ACTIONS_* (runtime services, OIDC), INPUT_* (an
 * action's inputs, its token among them), RUNNER_* (the runner's own).
 */
import { z } from 'zod';

export const RUNNER_VARIABLE_PREFIXES = ['GITHUB_', 'ACTIONS_', 'INPUT_', 'RUNNER_'] as const;

/** Whether `name` is one of the runner's or an action's own variables (case-insensitive, as on Windows). */
export function isRunnerVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return RUNNER_VARIABLE_PREFIXES.some((p) => upper.startsWith(p));
}

/** Why `name` may not hold an API key, for a config error or a judge's error. */
export function runnerVariableProblem(name: string): string {
  return (
    `${JSON.stringify(name)} is a variable of the CI runner or the Action itself ` +
    `(${RUNNER_VARIABLE_PREFIXES.map((p) => `${p}*`).join(', ')}), never read as an API key: ` +
    'name the variable that holds your key (OPENAI_API_KEY, ANTHROPIC_API_KEY or one of your own)'
  );
}

/** `apiKeyEnv`: an environment variable's name that is not the runner's or the Action's own. */
export function apiKeyEnvSchema(description: string) {
  return z
    .string()
    .min(1)
    .refine((name) => !isRunnerVariable(name), {
      error: (issue) => runnerVariableProblem(String(issue.input)),
    })
    .describe(description);
}

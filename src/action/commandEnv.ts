/**
 * The environment of the eval `command:`: the one an ordinary `run:` step of the same job would
 * have. The command is the pull request's code, and an agent fed untrusted content; the runner
 * gives a JavaScript action more than it gives a `run:` step (actions/runner,
 * NodeScriptActionHandler.cs): the action's inputs as INPUT_* (`INPUT_GITHUB-TOKEN`, the job's
 * token, among them) and the credentials and addresses of the runtime services (artifacts,
 * caches, OIDC tokens). None of those reaches the command. What the workflow put in the step's
 * `env:` (an API key for the judges) does, as it would reach a `run:` step given the same `env:`.
 */

/** What the runner adds for a JavaScript action only (NodeScriptActionHandler.cs and its runtime endpoints). */
export const ACTION_ONLY_VARIABLES: readonly string[] = [
  'ACTIONS_RUNTIME_URL',
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_CACHE_URL',
  'ACTIONS_CACHE_SERVICE_V2',
  'ACTIONS_RESULTS_URL',
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
];

/** The action's inputs (INPUT_<NAME>) and the state it saves between its steps (STATE_<NAME>). */
const ACTION_ONLY_PREFIXES = ['INPUT_', 'STATE_'];

function actionOnly(name: string): boolean {
  const upper = name.toUpperCase();
  return ACTION_ONLY_VARIABLES.includes(upper) || ACTION_ONLY_PREFIXES.some((p) => upper.startsWith(p));
}

/**
 * `env` without what only the Action itself is given, with CI=true (as on every runner) and the
 * `set` variables on top (the cassette mode a pull request's run is held to, trustedConfig.ts).
 */
export function evalCommandEnv(
  env: NodeJS.ProcessEnv,
  set: Record<string, string> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && !actionOnly(name)) out[name] = value;
  return { ...out, CI: 'true', ...set };
}

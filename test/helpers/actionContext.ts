/** The GitHub context of a push to a feature branch, for tests that call the Action's `run` directly. */
import type { ActionContext } from '../../src/action/deps.js';

export const pushContext: ActionContext = {
  eventName: 'push',
  payload: { repository: { default_branch: 'main' } },
  sha: 'abc',
  ref: 'refs/heads/feature',
  workflow: 'tracejury',
  runId: 3,
  runNumber: 1,
  serverUrl: 'https://github.com',
  repo: { owner: 'acme', repo: 'agent' },
} as unknown as ActionContext;

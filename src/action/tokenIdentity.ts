/**
 * Who the token is, so that the sticky comment is looked for only among comments this identity
 * wrote: anyone can post a comment that begins with `<!-- tracejury:default -->`, and the Action
 * must neither edit it (their words under our name, or a 403 and no comment at all) nor let them
 * edit "its" comment into a fake pass later.
 *
 * Found once per run, by the first of these that answers:
 * 1. GraphQL `viewer { login }`, which answers for every kind of token: `github-actions[bot]` for
 *    the workflow's GITHUB_TOKEN, `<app-slug>[bot]` for a GitHub App installation token, the user
 *    for a personal access token. (REST has no such endpoint for installation tokens: `GET /user`
 *    and `GET /app` both refuse them.)
 * 2. REST `GET /user`, for a personal access token whose GraphQL access is refused.
 * 3. Otherwise `github-actions[bot]`, the identity of the default token: with another token whose
 *    identity could not be learnt, no old comment matches and a new one is written each run,
 *    which is safe, where editing a stranger's comment is not.
 */
import type { Octokit } from './deps.js';
import { httpFailureOf } from './githubError.js';

export const GITHUB_ACTIONS_BOT = 'github-actions[bot]';

export interface TokenIdentity {
  /** The login GitHub writes as `user.login` on this token's comments. */
  login: string;
  /** How it was learnt, for the log. */
  from: 'GraphQL viewer' | 'GET /user' | 'the default token’s identity (assumed)';
}

/** GitHub said no (an HTTP status, or GraphQL errors in a 200): try the next way. */
const refused = (err: unknown): boolean =>
  httpFailureOf(err) !== undefined || (err instanceof Error && err.name === 'GraphqlResponseError');

const loginOf = (value: unknown): string | undefined => {
  const login = (value as { login?: unknown } | null | undefined)?.login;
  return typeof login === 'string' && login !== '' ? login : undefined;
};

export async function resolveTokenIdentity(
  octokit: Octokit,
  debug: (line: string) => void,
): Promise<TokenIdentity> {
  try {
    const data = await octokit.graphql<{ viewer?: unknown }>('query { viewer { login } }');
    const login = loginOf(data.viewer);
    if (login) return { login, from: 'GraphQL viewer' };
    debug('token identity: GraphQL viewer gave no login');
  } catch (err) {
    if (!refused(err)) throw err;
    debug(`token identity: GraphQL viewer refused: ${(err as Error).message.split('\n')[0]}`);
  }
  try {
    const { data } = await octokit.rest.users.getAuthenticated();
    const login = loginOf(data);
    if (login) return { login, from: 'GET /user' };
    debug('token identity: GET /user gave no login');
  } catch (err) {
    if (!refused(err)) throw err;
    debug(`token identity: GET /user refused: ${(err as Error).message.split('\n')[0]}`);
  }
  return { login: GITHUB_ACTIONS_BOT, from: 'the default token’s identity (assumed)' };
}

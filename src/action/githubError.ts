/**
 * GitHub said no. A 403 on comments or checks is a workflow without the permission (or a fork's
 * read-only token): the step warns, naming the permission to add, and goes on with the job
 * summary. Other HTTP failures warn as well; only errors that are not GitHub's answer propagate.
 */
export interface HttpFailure {
  status: number;
  message: string;
}

export function httpFailureOf(err: unknown): HttpFailure | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const status = (err as { status?: unknown }).status;
  if (typeof status !== 'number') return undefined;
  return { status, message: String((err as Error).message ?? '').split('\n')[0]! };
}

/** The warning for `what` failing, with the permission a 403 means is missing. */
export function permissionWarning(what: string, failure: HttpFailure, permission: string): string {
  if (failure.status === 403 || failure.status === 404)
    return (
      `tracejury: could not ${what}: GitHub answered ${failure.status} (${failure.message}). ` +
      `Give the job \`permissions: ${permission}\`; on pull requests from forks the token is read-only, ` +
      'so use the two-workflow pattern ' +
      '(https://github.com/tracejury/tracejury/blob/main/docs/action.md#pull-requests-from-forks). ' +
      'The job summary has the report.'
    );
  return `tracejury: could not ${what}: GitHub answered ${failure.status} (${failure.message}). The job summary has the report.`;
}

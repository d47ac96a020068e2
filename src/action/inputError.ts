/**
 * A problem with what the workflow gave the Action (an input, a file an input names): the step
 * fails with the message alone, no stack, since the fix is in the workflow file, not in tracejury.
 */
export class ActionInputError extends Error {
  override name = 'ActionInputError';
}

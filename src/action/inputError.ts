/**
 * An Action input the user must fix (a baseline file that is missing or not a report, …). run()
 * fails the step with the message alone; any other error is a bug and keeps its stack.
 */
export class ActionInputError extends Error {
  override name = 'ActionInputError';
}

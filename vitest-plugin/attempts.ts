/**
 * Each attempt of a test (Vitest's `repeats` and `retry`), recorded as it ends, and the plugin's
 * `passRate`. Vitest keeps a test failed once any attempt failed and holds every attempt's errors
 * in one list, so an attempt failed when that list grew during it. With `passRate`, the last
 * attempt decides: enough passed → the test passes, and says how many did; too few → one more
 * error says the rate was missed.
 */
import { metaOf } from './meta.js';

/** The parts of Vitest's test task this needs (the same in Vitest 4 and 5). */
export interface AttemptTask {
  meta: Record<string, unknown>;
  repeats?: number;
  retry?: number | { count?: number };
  result?: {
    state?: string;
    errors?: { message: string; name?: string; stack?: string }[];
    repeatCount?: number;
    retryCount?: number;
    note?: string;
  };
}

function retries(retry: AttemptTask['retry']): number {
  if (typeof retry === 'number') return retry;
  return retry?.count ?? 0;
}

/** Errors already on the task when an attempt starts. */
export function attemptStart(task: AttemptTask): number {
  return task.result?.errors?.length ?? 0;
}

export function attemptEnded(task: AttemptTask, errorsAtStart: number, passRate: number | undefined): void {
  const result = task.result;
  if (!result) return;
  const passed = (result.errors?.length ?? 0) === errorsAtStart;
  const meta = metaOf(task);
  meta.attempts.push(passed);
  const lastRepeat = (result.repeatCount ?? 0) >= (task.repeats ?? 0);
  // A passing attempt ends its repeat's retries; a failing one is last only when no retry is left.
  const lastTry = passed || (result.retryCount ?? 0) >= retries(task.retry);
  if (passRate === undefined || !lastRepeat || !lastTry || meta.attempts.length < 2) return;
  const ok = meta.attempts.filter(Boolean).length;
  const total = meta.attempts.length;
  const met = ok / total >= passRate;
  meta.passRate = { required: passRate, met };
  const summary = `${ok} of ${total} attempts passed; passRate ${passRate} ${met ? 'met' : `needs ${Math.ceil(passRate * total)}`}`;
  if (met && result.state === 'fail') {
    result.state = 'pass';
    result.errors = [];
    result.note = summary;
  } else if (!met) {
    result.state = 'fail';
    (result.errors ??= []).push({ name: 'PassRateError', message: `tracejury: ${summary}` });
  }
}

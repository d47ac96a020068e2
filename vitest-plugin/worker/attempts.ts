/**
 * Each attempt of a test (Vitest's `repeats` and `retry`), recorded as it ends, and the plugin's
 * `passRate`. Vitest keeps every attempt's errors in one list, so an attempt failed when that list
 * grew during it (the same in Vitest 4 and 5).
 *
 * passRate (tests with `repeats` only): Vitest fails a test as soon as one repeat fails — in
 * Vitest 5 from each repeat's final state, which a hook cannot change afterwards. So each failed
 * repeat's errors are held back as it ends (its state set to pass, which also means it is not
 * retried), and the last repeat decides: enough passed → the test passes and its note says how
 * many did; too few → the held errors come back with one more that says the rate was missed.
 */
import { metaOf } from '../shared/meta.js';

type TestError = { message: string; name?: string; stack?: string };

/** The parts of Vitest's test task this needs (the same in Vitest 4 and 5). */
export interface AttemptTask {
  meta: Record<string, unknown>;
  repeats?: number;
  result?: {
    state?: string;
    errors?: TestError[];
    repeatCount?: number;
    note?: string;
  };
}

/** Errors of failed repeats held back until the last repeat decides. */
const held = new WeakMap<object, TestError[]>();

/** Fails the running attempt with `error`, as a failed assertion would, without throwing. */
export function failAttempt(task: AttemptTask, error: TestError): void {
  task.result ??= {};
  task.result.state = 'fail';
  task.result.errors = [...(task.result.errors ?? []), error];
}

/** Errors already on the task when an attempt starts. */
export function attemptStart(task: AttemptTask): number {
  return task.result?.errors?.length ?? 0;
}

export function attemptEnded(task: AttemptTask, errorsAtStart: number, passRate: number | undefined): void {
  const result = task.result;
  if (!result) return;
  const errors = result.errors ?? [];
  const passed = errors.length === errorsAtStart;
  const meta = metaOf(task);
  meta.attempts.push(passed);
  const repeats = task.repeats ?? 0;
  if (passRate === undefined || repeats === 0) return;
  if (!passed) {
    const mine = errors.splice(errorsAtStart);
    held.set(task, [...(held.get(task) ?? []), ...mine]);
    if (errors.length === 0) result.errors = undefined;
    result.state = 'pass';
  }
  if ((result.repeatCount ?? 0) < repeats) return;
  const ok = meta.attempts.filter(Boolean).length;
  const total = meta.attempts.length;
  const met = ok / total >= passRate;
  meta.passRate = { required: passRate, met };
  const summary = `${ok} of ${total} attempts passed; passRate ${passRate} ${met ? 'met' : `needs ${Math.ceil(passRate * total)}`}`;
  if (met) {
    if (ok < total) result.note = summary;
    return;
  }
  result.state = 'fail';
  result.errors = [
    ...(result.errors ?? []),
    ...(held.get(task) ?? []),
    { name: 'PassRateError', message: `tracejury: ${summary}` },
  ];
}

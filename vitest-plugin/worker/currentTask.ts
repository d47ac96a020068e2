/**
 * The running test, for matchers and helpers that record into its meta. Only worker-side modules
 * import this (it loads Vitest's runtime); the reporter reads meta without it.
 */
import { TestRunner } from 'vitest';
import type { TaskLike } from '../shared/meta.js';

/**
 * The test bound to the `expect` that called the matcher (right for concurrent tests using the
 * context's expect), else the runner's current test; none outside a test. `TestRunner` is exported
 * by Vitest 4.1 and 5 alike (5 dropped the `vitest/suite` entry).
 */
export function currentTask(matcherThis?: unknown): TaskLike | undefined {
  const bound = (matcherThis as { task?: TaskLike } | undefined)?.task;
  if (bound?.meta) return bound;
  return TestRunner.getCurrentTest() as TaskLike | undefined;
}

/** The absolute path of the test file a task belongs to (Vitest 4 and 5: `task.file.filepath`). */
export function testFileOf(task: TaskLike | undefined): string | undefined {
  const filepath = (task as { file?: { filepath?: unknown } } | undefined)?.file?.filepath;
  return typeof filepath === 'string' ? filepath : undefined;
}

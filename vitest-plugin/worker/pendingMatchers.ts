/**
 * Async matchers that were not awaited. `expect(x).toPassTribunal()` without `await` returns a
 * promise nobody waits for: Vitest 4 and 5 track the promises of `.resolves` / `.rejects` but not
 * those of `expect.extend` matchers, so a failing verdict is an "Unhandled Rejection" after the test
 * passed — or nothing at all when it was the file's last test. Each async matcher's promise is
 * tracked here per test; the setup file's afterEach awaits the ones the test never awaited and fails
 * the test, naming the matcher and the line it was called on (and its own failure, if it failed).
 *
 * The matcher returns a thenable, not a promise: Vitest calls its `then` once to attach the
 * assertion's pass/fail check and hands what that returns to the test; that second thenable is
 * the one the test awaits, so a call to its `then`, `catch` or `finally` is how an await is seen.
 */
import path from 'node:path';
import type { TaskLike } from '../shared/meta.js';

interface Pending {
  matcher: string;
  /** `file:line:column` of the call in the test file, when the stack shows it. */
  where: string | undefined;
  /** The stack at the call: the failure points at that line of the test. */
  stack: string | undefined;
  /** The assertion's outcome: resolves when it passed, rejects with its failure. */
  settled: Promise<void>;
  /** Whether it had settled by then: a verdict still on its way when the test ended is said so. */
  done: boolean;
  awaited: boolean;
}

const pendingByTest = new WeakMap<object, Pending[]>();

type Then = PromiseLike<unknown>['then'];

/** A promise-like whose use by the test marks the call as awaited. */
function watched(entry: Pending, promise: Promise<unknown>): PromiseLike<unknown> & Promise<unknown> {
  const mark = () => {
    entry.awaited = true;
  };
  return {
    then: ((onFulfilled, onRejected) => {
      mark();
      return promise.then(onFulfilled, onRejected);
    }) as Then,
    catch(onRejected?: (reason: unknown) => unknown) {
      mark();
      return promise.catch(onRejected);
    },
    finally(onFinally?: () => void) {
      mark();
      return promise.finally(onFinally);
    },
    [Symbol.toStringTag]: 'Promise',
  } as PromiseLike<unknown> & Promise<unknown>;
}

/** The first stack frame in the test's own file: where the matcher was called. */
function callSite(stack: string | undefined, testFile: string | undefined): string | undefined {
  if (!stack || !testFile) return undefined;
  for (const line of stack.split('\n')) {
    const at = line.indexOf(testFile);
    if (at === -1) continue;
    const m = /^(.*?):(\d+):(\d+)/.exec(line.slice(at));
    if (!m) continue;
    const shown = path.relative(process.cwd(), m[1]!).split(path.sep).join('/');
    return `${shown.startsWith('..') ? m[1] : shown}:${m[2]}:${m[3]}`;
  }
  return undefined;
}

/**
 * Wraps an async matcher's result so that the test it runs in fails if it ends without awaiting
 * it. `task` is the running test (none outside a test: nothing is tracked).
 */
export function trackAsyncMatcher<T>(
  task: TaskLike | undefined,
  matcher: string,
  result: Promise<T>,
  testFile: string | undefined,
): Promise<T> {
  if (!task) return result;
  // Deep enough to reach the test's frame below Vitest's and Chai's wrappers.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = Math.max(limit, 50);
  const stack = new Error().stack;
  Error.stackTraceLimit = limit;
  const entry: Pending = {
    matcher,
    where: callSite(stack, testFile),
    stack,
    settled: Promise.resolve(),
    done: false,
    awaited: false,
  };
  const list = pendingByTest.get(task) ?? [];
  list.push(entry);
  pendingByTest.set(task, list);
  const thenable = {
    then: ((onFulfilled, onRejected) => {
      // Vitest's own `then`: it turns the matcher's { pass, message } into pass or throw.
      const assertion = result.then(onFulfilled, onRejected);
      entry.settled = assertion.then(() => undefined);
      // Kept from being an unhandled rejection: an unawaited failure is reported by unawaitedFailure.
      entry.settled.then(
        () => (entry.done = true),
        () => (entry.done = true),
      );
      return watched(entry, assertion);
    }) as Then,
    catch: (onRejected?: (reason: unknown) => unknown) => thenable.then(undefined, onRejected),
    finally: (onFinally?: () => void) => result.finally(onFinally),
    [Symbol.toStringTag]: 'Promise',
  };
  // A promise in all but name: what expect.extend accepts from an async matcher.
  return thenable as unknown as Promise<T>;
}

/** A test's failure as Vitest keeps it in `task.result.errors`. */
export interface TestFailure {
  name: string;
  message: string;
  stack?: string;
}

/**
 * At the end of a test: the async matchers it did not await, each awaited now and reported with
 * its line and, when it failed, its failure; undefined when every one was awaited. The caller adds
 * it to the test's errors rather than throwing it: a throwing afterEach hook would skip the hooks
 * after it, and with them the attempt's bookkeeping.
 */
export async function unawaitedFailure(
  task: TaskLike,
  testFile: string | undefined,
): Promise<TestFailure | undefined> {
  const list = pendingByTest.get(task);
  pendingByTest.delete(task);
  const missed = (list ?? []).filter((p) => !p.awaited);
  if (missed.length === 0) return undefined;
  const lines = await Promise.all(
    missed.map(async (p) => {
      const when = p.done ? '' : 'still running when the test ended; ';
      const outcome = await p.settled.then(
        () => `${when}it passed`,
        (err: unknown) => `${when}it failed: ${err instanceof Error ? err.message : String(err)}`,
      );
      return `${p.matcher}(…)${p.where ? ` at ${p.where}` : ''} was not awaited (${outcome})`;
    }),
  );
  const name = 'UnawaitedMatcherError';
  const message =
    `${lines.join('\n')}\n${missed.length === 1 ? 'This matcher is' : 'These matchers are'} asynchronous: ` +
    `write \`await expect(…).${missed[0]!.matcher}(…)\`, or the test cannot fail on ${missed.length === 1 ? 'it' : 'them'}.`;
  // The frames of the first call from the test's own line down: Vitest shows that line's code.
  const all = missed[0]!.stack?.split('\n').slice(1) ?? [];
  const fromTest = testFile ? all.findIndex((l) => l.includes(testFile)) : -1;
  const frames = (fromTest === -1 ? all : all.slice(fromTest)).join('\n');
  return { name, message, ...(frames ? { stack: `${name}: ${message}\n${frames}` } : {}) };
}

/**
 * The setup file the plugin adds to every test file: captureTrace's tracer provider registered
 * before the test file makes its instrumentations, the matchers, the worker's settings from the
 * plugin (provide/inject), each attempt recorded for pass^k, the traces of a failed attempt saved,
 * a test that left an async matcher unawaited failed, and the worker's judge cassette written out
 * at the end.
 */
import { afterAll, afterEach, beforeEach, expect, inject } from 'vitest';
import { attemptEnded, attemptStart, failAttempt, type AttemptTask } from './worker/attempts.js';
import { configureWorker, flushTribunal, workerSettings } from './worker/context.js';
import { unawaitedFailure } from './worker/pendingMatchers.js';
import { testFileOf } from './worker/currentTask.js';
import { reportKeptTraces, saveAttemptTraces } from './worker/savedTraces.js';
import { matchers } from './matchers.js';
import { PROVIDE_KEY } from './shared/workerSettings.js';
import { closeAllReceivers } from './receiver/receiverRegistry.js';
import { prepareCaptureTracing, resetCapture } from './capture/capture.js';

configureWorker(inject(PROVIDE_KEY));
// Before the user's setup files and the test file run: an instrumentation takes its tracer when it
// is made, and one taken before any provider is registered may never record (globalTracing.ts
// says why). A provider registered earlier still (node --import) is kept, with our processor added.
prepareCaptureTracing();
expect.extend(matchers);

beforeEach(({ task }) => {
  const attempt = task as unknown as AttemptTask;
  const start = attemptStart(attempt);
  // A beforeEach cleanup runs after every afterEach hook of the attempt, so their errors count too.
  return () => {
    reportKeptTraces(attempt);
    saveAttemptTraces(attempt, (attempt.result?.errors?.length ?? 0) > start);
    attemptEnded(attempt, start, workerSettings().passRate);
  };
});

// A setup file's hooks are registered before the test file's and afterEach hooks run in reverse, so
// this runs after the test's own afterEach hooks, which may still await the matcher.
afterEach(async ({ task }) => {
  const attempt = task as unknown as AttemptTask;
  const failure = await unawaitedFailure(attempt, testFileOf(attempt));
  if (failure) failAttempt(attempt, failure);
});

// A capture a test left open (it threw mid-agent) must not keep collecting the next test's spans.
afterEach(() => resetCapture());

afterAll(async () => {
  await Promise.all([flushTribunal(), closeAllReceivers()]);
});

/**
 * RETRY_STORM: the same tool fails `threshold` or more times in a row without recovery. "In a row"
 * is counted over that tool's own calls: LLM steps and calls of other tools in between do not
 * break the streak (agents usually think between retries); a successful call of the same tool
 * does. Each unbroken streak is one signal.
 *
 * A streak is of retries, judged by what is repeated (repetition.ts): each failure must retry the
 * one before it — the same error (numbers aside) or arguments at least half alike. A single-tool
 * agent whose `bash` runs a grep that finds nothing, then a test that fails as expected, then a
 * different script, is not retrying anything: a failure unlike the one before starts a new streak.
 * So does a failure after a write that took effect (callStates.ts): a test that still fails after
 * an edit made with another tool is a new attempt, not a retry.
 *
 * Waste: the LLM calls that issued the retries — every failed call of the streak after the first
 * (the first attempt was needed to learn it fails); not the first, and not a call that also issued
 * other calls in the same batch (issuingCalls.ts). The runner prices them.
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import { ERROR_QUOTE, redactAndCut } from '../../../redact/safeText.js';
import { callStates, sameState, type CallStates } from './callStates.js';
import { callFacts, retries, type CallFacts } from './repetition.js';
import { endingClause, runEnding } from './runEnding.js';
import { allIdentical, fmtInt, stepNo, stepSpan, type ToolCall } from './shared.js';
import { chargeEvidence, issuingCalls } from './issuingCalls.js';
import { wastePriority } from '../../wastePriority.js';

/** A failed call, with its position among the run's tool calls and its facts worked out when first compared. */
interface Failure extends ToolCall {
  pos: number;
  facts?: CallFacts;
}

/**
 * `call` retries `last`: nothing was written between them, and the same error text at a glance,
 * else as repetition.ts compares them.
 */
function retriesLast(states: CallStates, last: Failure, call: Failure): boolean {
  if (!sameState(states, last.pos, call.pos)) return false;
  if (last.step.error !== undefined && last.step.error === call.step.error) return true;
  last.facts ??= callFacts(last, last.pos);
  call.facts ??= callFacts(call, call.pos);
  return retries(last.facts, call.facts);
}

export const retryStorm = defineDetector({
  meta: {
    id: 'RETRY_STORM',
    configKey: 'retry_storm',
    tier: 1,
    kind: 'structural',
    severity: 'high',
    failureMode: 'retry',
    description: 'Same tool fails 3+ times in a row without recovery',
    priority: wastePriority('RETRY_STORM'),
    wasteRule:
      'the LLM calls that issued the retries after the first failure; not the first attempt, nor a call that also issued other calls',
    fix: "check the tool's arguments before retrying; cap retries with backoff and stop on non-retryable errors",
    rule: 'One tool fails `threshold` times in a row with no successful call of it in between; LLM calls and other tools between the attempts do not break the streak, unless they wrote something (an edit, a patch: the next failure is a new attempt). Each failure must retry the one before it (the same error, or arguments at least half alike): three different commands failing one after another are not a storm.',
    config: z.object({
      threshold: z
        .number()
        .int()
        .min(2)
        .default(3)
        .describe('Consecutive failures of one tool, with no success of it in between, that fire'),
    }),
  },
  detect(trace, ctx) {
    const { threshold } = ctx.config;
    // A streak needs `threshold` failed calls: most traces have fewer failures in all.
    let failed = 0;
    for (const s of trace.steps) if (s.type === 'tool' && s.status === 'error') failed++;
    if (failed < threshold) return [];
    const streaks = new Map<string, Failure[]>();
    const found: (SignalDraft & { first: number })[] = [];
    const ending = runEnding(trace);

    // Index of each tool's last successful call, found once a streak is broken by an unlike failure.
    let lastOk: Map<string, number> | undefined;
    /** A call of the tool after step index `i` succeeded. */
    const recoversLater = (i: number, name: string) => {
      if (!lastOk) {
        lastOk = new Map();
        trace.steps.forEach((s, k) => {
          if (s.type === 'tool' && s.status !== 'error') lastOk!.set(s.name, k);
        });
      }
      return (lastOk.get(name) ?? -1) > i;
    };
    const close = (name: string, recoveredLater: boolean) => {
      const streak = streaks.get(name);
      streaks.delete(name);
      if (!streak || streak.length < threshold) return;
      const steps = streak.map((c) => c.no);
      const sameArgs = allIdentical(streak.map((c) => c.step.args));
      const lastError = streak[streak.length - 1]!.step.error;
      found.push({
        first: steps[0]!,
        severity: 'high',
        // Retrying the identical call, or more often than the threshold, is unambiguous.
        confidence: sameArgs || streak.length > threshold ? 0.92 : 0.86,
        steps,
        message:
          `${name} failed ${fmtInt(streak.length)}× in a row with no successful call in between (${stepSpan(steps)})` +
          (sameArgs ? ', retried with identical arguments' : '') +
          // How the run ended in the words every detector uses (runEnding.ts), so this message and
          // FIRST_STEP_FAILURE's on the same trace agree.
          (recoveredLater ? '' : `, no later call of it succeeded (${endingClause(ending)})`) +
          (lastError ? `; last error: ${redactAndCut(lastError, ERROR_QUOTE)}` : ''),
        evidence: {
          tool: name,
          failures: streak.length,
          threshold,
          identicalArgs: sameArgs,
          lastError,
          recoveredLater,
          ending: ending.kind,
          ...chargeEvidence(issuingCalls(trace, steps.slice(1))),
        },
      });
    };

    const states = callStates(trace);
    let pos = -1;
    trace.steps.forEach((s, i) => {
      if (s.type !== 'tool') return;
      pos++;
      if (s.status === 'error') {
        const call: Failure = { step: s, no: stepNo(i), pos };
        let streak = streaks.get(s.name);
        // A failure that does not retry the one before ends that streak and starts its own.
        if (streak && !retriesLast(states, streak[streak.length - 1]!, call)) {
          close(s.name, recoversLater(i, s.name));
          streak = undefined;
        }
        streak ??= [];
        streak.push(call);
        streaks.set(s.name, streak);
      } else {
        close(s.name, true);
      }
    });
    for (const name of [...streaks.keys()]) close(name, false);
    return found.sort((a, b) => a.first - b.first).map(({ first: _first, ...s }) => s);
  },
});

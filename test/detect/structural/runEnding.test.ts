/**
 * One story per trace: how a run ended is worded once (runEnding.ts) and every detector that speaks
 * of recovery uses it, so FIRST_STEP_FAILURE and RETRY_STORM never disagree about one trace. A run
 * whose answer apologises after its failures did not recover, whatever its status says.
 */
import { describe, expect, it } from 'vitest';
import { answerGivesUp, runEnding } from '../../../src/detect/detectors/structural/runEnding.js';
import { firstStepFailure } from '../../../src/detect/detectors/structural/firstStepFailure.js';
import { retryStorm } from '../../../src/detect/detectors/structural/retryStorm.js';
import { llm, makeTrace, tool } from '../../helpers/traceBuilder.js';
import { runDetector } from '../tester.js';

const lookupFails = () => tool('lookup_order', { status: 'error', error: 'HTTP 503', args: { id: '4412' } });

/** Every lookup failed; the agent then wrote `answer` and the run's status is ok. */
const run = (answer: string) =>
  makeTrace([lookupFails(), llm(), lookupFails(), llm(), lookupFails(), llm({ output: answer })], {
    status: 'ok',
    output: answer,
  });

describe('how a run ended', () => {
  it('a run that apologised after its failures gave up: both detectors say it never recovered', () => {
    const trace = run("I'm sorry, I could not look up order 4412 right now. Please try again later.");
    expect(runEnding(trace)).toEqual({ kind: 'gave-up' });
    const [first] = runDetector(firstStepFailure, trace);
    const [storm] = runDetector(retryStorm, trace);
    expect(first?.message).toContain('the run never recovered: it ended with an apology, not an answer');
    expect(storm?.message).toContain('the run never recovered: it ended with an apology, not an answer');
    for (const m of [first?.message, storm?.message]) expect(m).not.toContain('later recovered');
    // Not recovered: the certain kind of early failure.
    expect(first?.confidence).toBe(0.9);
  });

  it('a run that answered after its failures recovered: both detectors say so', () => {
    const trace = run('Your parcel is in Leipzig and arrives tomorrow.');
    expect(runEnding(trace)).toEqual({ kind: 'recovered' });
    const [first] = runDetector(firstStepFailure, trace);
    const [storm] = runDetector(retryStorm, trace);
    expect(first?.message).toContain('(the run later recovered and ended ok)');
    expect(storm?.message).toContain('no later call of it succeeded (the run later recovered and ended ok)');
    for (const m of [first?.message, storm?.message]) expect(m).not.toContain('never recovered');
    expect(first?.confidence).toBe(0.8);
  });

  it('a run with an error status, or with no output, is worded the same by both', () => {
    const failed = makeTrace([lookupFails(), lookupFails(), lookupFails()], { status: 'error' });
    expect(runEnding(failed)).toEqual({ kind: 'failed', status: 'error' });
    const never = 'the run never recovered: it ended with status error';
    expect(runDetector(firstStepFailure, failed)[0]?.message).toContain(never);
    expect(runDetector(retryStorm, failed)[0]?.message).toContain(never);
    const unknown = makeTrace([lookupFails(), lookupFails(), lookupFails()]);
    expect(runEnding(unknown)).toEqual({ kind: 'unknown' });
    const notKnown = 'whether it recovered is not known';
    expect(runDetector(firstStepFailure, unknown)[0]?.message).toContain(notKnown);
    expect(runDetector(retryStorm, unknown)[0]?.message).toContain(notKnown);
  });

  it('reads an apology in a string answer or the last message, at its start or its end, not in the middle', () => {
    const msg = (content: unknown) => makeTrace([llm()], { output: { role: 'assistant', content } });
    expect(answerGivesUp(msg('Unfortunately the carrier did not answer.'))).toBe(true);
    expect(answerGivesUp(msg([{ type: 'text', text: 'We were unable to reach the carrier.' }]))).toBe(true);
    expect(answerGivesUp(makeTrace([llm()], { output: 'I was unable to find order 4412.' }))).toBe(true);
    // Answers that are answers.
    expect(answerGivesUp(makeTrace([llm()], { output: 'Order 4412 is in Leipzig.' }))).toBe(false);
    expect(answerGivesUp(makeTrace([llm()], { output: 'The unable_to_ship flag is false.' }))).toBe(false);
    const long = `Order 4412 is in Leipzig. ${'Details follow. '.repeat(60)} Sorry for the wait, it is on its way.`;
    expect(answerGivesUp(makeTrace([llm()], { output: long }))).toBe(true);
    const middle = `Order 4412 is in Leipzig. ${'Details follow. '.repeat(40)}We could not print the label earlier, it is fixed now. ${'More details. '.repeat(40)}It arrives tomorrow.`;
    expect(answerGivesUp(makeTrace([llm()], { output: middle }))).toBe(false);
  });
});

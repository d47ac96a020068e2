/**
 * toHaveRootCause: the failed run's root cause, as failure attribution names it (the rules alone:
 * a matcher runs no judges), is the one expected — `{ agent?, step?, rule? }`, each field given
 * compared, none given meaning "a root cause was named". Synchronous; analyses the trace once per
 * worker (context.ts) and records it for the report, as the detector matchers do. Written as
 * Vitest's own matchers are: `this` is the matcher state, the message is built with its utils,
 * and `actual` / `expected` go back so an editor shows the difference.
 */
import type { MatcherState } from 'vitest';
import type { RootCause } from 'tracejury';
import { analyse } from '../worker/context.js';
import { currentTask } from '../worker/currentTask.js';
import { receivedTrace } from '../worker/received.js';
import { recordTrace } from '../worker/savedTraces.js';
import { checkArgument } from './checkArgs.js';
import { RootCauseMatcherOptionsSchema, type RootCauseMatcherOptions } from './options.js';

const FIELDS = ['agent', 'step', 'rule'] as const;

/** What the run has, in the shape of what was asked, so the diff lines up. */
function actualOf(cause: RootCause | undefined, expected: RootCauseMatcherOptions): Record<string, unknown> {
  if (!cause || !('step' in cause)) return {};
  const asked = FIELDS.filter((k) => expected[k] !== undefined);
  return Object.fromEntries((asked.length > 0 ? asked : FIELDS).map((k) => [k, cause[k]]));
}

/** Why a run has no root cause to compare. */
function noCause(cause: RootCause | undefined): string {
  return cause && 'unattributed' in cause
    ? `no root cause was named: ${cause.unattributed}`
    : 'the run did not fail (no failed outcome, no error, no finding at the gate), so it has no root cause';
}

export function toHaveRootCause(this: MatcherState, received: unknown, expected: unknown = {}) {
  const want = checkArgument('toHaveRootCause', 'expected', RootCauseMatcherOptionsSchema, expected);
  const analysis = analyse(receivedTrace(received));
  recordTrace(currentTask(this), analysis);
  const { rootCause } = analysis;
  const cause = rootCause && 'step' in rootCause ? rootCause : undefined;
  const pass = cause !== undefined && FIELDS.every((k) => want[k] === undefined || cause[k] === want[k]);
  const { utils } = this;
  const hint = utils.matcherHint(`${this.isNot ? '.not' : ''}.toHaveRootCause`, 'trace', 'expected', {
    isNot: this.isNot,
  });
  const actual = actualOf(rootCause, want);
  return {
    pass,
    actual,
    expected: want,
    message: () => {
      const id = `trace ${analysis.trace.id}`;
      if (!cause)
        return `${hint}\n\nExpected ${id} to have a root cause${describe(want, utils)}, but ${noCause(rootCause)}`;
      const found =
        `step ${cause.step}, ${cause.agent} (${cause.rule}, ${cause.confidence.toFixed(2)}): ${cause.evidence}` +
        (cause.decidedBy === 'tribunal' ? ' — chosen by the judges' : '');
      return this.isNot
        ? `${hint}\n\nExpected ${id} not to have the root cause${describe(want, utils)}, but it has: ${found}`
        : `${hint}\n\nExpected: ${utils.printExpected(want)}\nReceived: ${utils.printReceived(actual)}\n\nThe root cause of ${id} is ${found}`;
    },
  };
}

function describe(want: RootCauseMatcherOptions, utils: MatcherState['utils']): string {
  return FIELDS.some((k) => want[k] !== undefined) ? ` ${utils.printExpected(want)}` : '';
}

/**
 * The detector matchers: toHaveSignal, toHaveNoSignals, toHaveWasteBelow. Synchronous, like
 * expect's own; each analyses the trace once per worker (context.ts) and records it for the
 * report. A signal counts when it is a finding or a gray-zone case (status `review`): a case the
 * rules could not decide fails `.not.toHaveSignal` rather than pass unseen. Shadow and suppressed
 * signals never count.
 *
 * Arguments are checked first, negated or not: `.not.toHaveSignal('TOOL_LOP')` names a detector
 * that does not exist, and would otherwise pass on every trace.
 */
import { z } from 'zod';
import { formatUsd, nearest, severityRank, type ReportSignal, type Severity } from 'tracejury';
import { analyse, knownDetectorIds } from '../worker/context.js';
import { signalsBlock } from './describeSignal.js';
import { currentTask } from '../worker/currentTask.js';
import { recordTrace } from '../worker/savedTraces.js';
import { receivedTrace } from '../worker/received.js';
import { checkArgument } from './checkArgs.js';
import { describeValue } from '../worker/describeValue.js';
import { NoSignalsOptionsSchema, SignalMatcherOptionsSchema, WasteBoundSchema } from './options.js';

interface MatcherThis {
  isNot: boolean;
}

function counted(s: ReportSignal): boolean {
  return s.status === 'finding' || s.status === 'review';
}

function analysed(self: unknown, received: unknown) {
  const analysis = analyse(receivedTrace(received));
  recordTrace(currentTask(self), analysis);
  return analysis;
}

/** The detector id, checked: built in or registered with registerDetectors, else the nearest ids. */
function checkDetectorId(detector: unknown): string {
  const id = checkArgument('toHaveSignal', 'detector', z.string().min(1), detector);
  const known = knownDetectorIds();
  if (known.includes(id)) return id;
  const hint = nearest(id, known);
  throw new TypeError(
    `toHaveSignal: unknown detector "${id}"${hint ? ` — did you mean "${hint}"?` : ''} ` +
      `(a detector id is one of the built-in ones, e.g. TOOL_LOOP, or one of your own registered with registerDetectors())`,
  );
}

export function toHaveSignal(this: MatcherThis, received: unknown, detector: unknown, options: unknown = {}) {
  const id = checkDetectorId(detector);
  const opts = checkArgument('toHaveSignal', 'options', SignalMatcherOptionsSchema, options);
  const { trace, signals } = analysed(this, received);
  const minConfidence = opts.minConfidence ?? 0;
  const ofDetector = signals.filter((s) => s.detector === id && counted(s));
  const matching = ofDetector.filter(
    (s) => s.confidence >= minConfidence && (opts.severity === undefined || s.severity === opts.severity),
  );
  const wanted = [
    id,
    opts.severity ? `severity ${opts.severity}` : '',
    minConfidence > 0 ? `confidence ≥ ${minConfidence}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    pass: matching.length > 0,
    message: () => {
      if (this.isNot)
        return `expected trace ${trace.id} not to have a ${wanted} signal, but it has ${matching.length}:\n${signalsBlock(matching)}`;
      const near = ofDetector.length
        ? `${id} signals that do not match:\n${signalsBlock(ofDetector)}`
        : signals.filter(counted).length
          ? `its signals are:\n${signalsBlock(signals.filter(counted))}`
          : 'it has no signal at all';
      return `expected trace ${trace.id} to have a ${wanted} signal, but it has none; ${near}`;
    },
  };
}

export function toHaveNoSignals(this: MatcherThis, received: unknown, options: unknown = {}) {
  const opts = checkArgument('toHaveNoSignals', 'options', NoSignalsOptionsSchema, options);
  const { trace, signals } = analysed(this, received);
  const min = severityRank(opts.minSeverity ?? 'low');
  const found = signals.filter((s) => counted(s) && severityRank(s.severity as Severity) >= min);
  const scope = opts.minSeverity && opts.minSeverity !== 'low' ? ` at or above ${opts.minSeverity}` : '';
  return {
    pass: found.length === 0,
    message: () =>
      this.isNot
        ? `expected trace ${trace.id} to have signals${scope}, but it has none`
        : `expected trace ${trace.id} to have no signals${scope}, but it has ${found.length}:\n${signalsBlock(found)}`,
  };
}

/**
 * The dollars the trace's findings charge it are below `usd` — the cost-waste detectors' and the
 * structural loops' (the LLM calls that produced their redundant steps), each call charged once;
 * `toHaveWasteBelow(0)` asks for no waste at all (nothing is below $0, so 0 means "none").
 */
export function toHaveWasteBelow(this: MatcherThis, received: unknown, usd: unknown) {
  if (typeof usd === 'string')
    throw new TypeError(
      `toHaveWasteBelow: usd: expected a number of dollars, got ${describeValue(usd)} (write toHaveWasteBelow(${Number(usd) >= 0 ? Number(usd) : 0.01}), not a string)`,
    );
  const bound = checkArgument('toHaveWasteBelow', 'usd', WasteBoundSchema, usd);
  const { trace, signals } = analysed(this, received);
  // The report's waste totals count findings only: a suppressed signal's dollars are charged to another.
  const wasting = signals.filter((s) => s.status === 'finding' && (s.wasteUsd ?? 0) > 0);
  const total = wasting.reduce((a, s) => a + (s.wasteUsd ?? 0), 0);
  const limit = bound === 0 ? 'no waste' : `waste below ${formatUsd(bound)}`;
  return {
    pass: bound === 0 ? total === 0 : total < bound,
    message: () =>
      this.isNot
        ? `expected trace ${trace.id} not to have ${limit}, but it wastes ${formatUsd(total)}`
        : `expected trace ${trace.id} to have ${limit}, but it wastes ${formatUsd(total)}:\n${signalsBlock(wasting)}`,
  };
}

/**
 * The detector matchers: toHaveSignal, toHaveNoSignals, toHaveWasteBelow. Synchronous, like
 * expect's own; each analyses the trace once per worker (context.ts) and records it for the
 * report. A signal counts when it is a finding or a gray-zone case (status `review`): a case the
 * rules could not decide fails `.not.toHaveSignal` rather than pass unseen. Shadow and suppressed
 * signals never count.
 */
import { severityRank, type ReportSignal, type Severity } from 'tracejury';
import { analyse } from '../worker/context.js';
import { signalsBlock } from './describeSignal.js';
import { currentTask } from '../worker/currentTask.js';
import { recordAnalysis } from '../shared/meta.js';
import { receivedTrace } from '../worker/received.js';
import type { DetectorId, SignalMatcherOptions, NoSignalsOptions } from '../types.js';

interface MatcherThis {
  isNot: boolean;
}

function counted(s: ReportSignal): boolean {
  return s.status === 'finding' || s.status === 'review';
}

function analysed(self: unknown, received: unknown) {
  const analysis = analyse(receivedTrace(received));
  recordAnalysis(currentTask(self), analysis);
  return analysis;
}

export function toHaveSignal(
  this: MatcherThis,
  received: unknown,
  detector: DetectorId,
  options: SignalMatcherOptions = {},
) {
  const { trace, signals } = analysed(this, received);
  const minConfidence = options.minConfidence ?? 0;
  const ofDetector = signals.filter((s) => s.detector === detector && counted(s));
  const matching = ofDetector.filter(
    (s) =>
      s.confidence >= minConfidence && (options.severity === undefined || s.severity === options.severity),
  );
  const wanted = [
    detector,
    options.severity ? `severity ${options.severity}` : '',
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
        ? `${detector} signals that do not match:\n${signalsBlock(ofDetector)}`
        : signals.filter(counted).length
          ? `its signals are:\n${signalsBlock(signals.filter(counted))}`
          : 'it has no signal at all';
      return `expected trace ${trace.id} to have a ${wanted} signal, but it has none; ${near}`;
    },
  };
}

export function toHaveNoSignals(this: MatcherThis, received: unknown, options: NoSignalsOptions = {}) {
  const { trace, signals } = analysed(this, received);
  const min = severityRank(options.minSeverity ?? 'low');
  const found = signals.filter((s) => counted(s) && severityRank(s.severity as Severity) >= min);
  const scope =
    options.minSeverity && options.minSeverity !== 'low' ? ` at or above ${options.minSeverity}` : '';
  return {
    pass: found.length === 0,
    message: () =>
      this.isNot
        ? `expected trace ${trace.id} to have signals${scope}, but it has none`
        : `expected trace ${trace.id} to have no signals${scope}, but it has ${found.length}:\n${signalsBlock(found)}`,
  };
}

export function toHaveWasteBelow(this: MatcherThis, received: unknown, usd: number) {
  if (typeof usd !== 'number' || !Number.isFinite(usd) || usd < 0)
    throw new TypeError(`toHaveWasteBelow(usd): usd must be a dollar amount ≥ 0, got ${String(usd)}`);
  const { trace, signals } = analysed(this, received);
  // The report's waste totals count findings only: a suppressed signal's dollars are charged to another.
  const wasting = signals.filter((s) => s.status === 'finding' && (s.wasteUsd ?? 0) > 0);
  const total = wasting.reduce((a, s) => a + (s.wasteUsd ?? 0), 0);
  const fmt = (x: number) => `$${x.toFixed(4)}`;
  return {
    pass: total < usd,
    message: () =>
      this.isNot
        ? `expected trace ${trace.id} to waste at least ${fmt(usd)}, but it wastes ${fmt(total)}`
        : `expected trace ${trace.id} to waste less than ${fmt(usd)}, but it wastes ${fmt(total)}:\n${signalsBlock(wasting)}`,
  };
}

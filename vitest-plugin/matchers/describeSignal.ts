/**
 * Signals in a failure message: which detector, how sure, which steps, what it saw — a line a
 * reviewer can act on — and each detector's fix hint once. Trace text is data: it is redacted, and
 * cut so one huge tool result cannot flood the terminal.
 */
import { findDetector, formatUsd, stepsText, terminalText, type ReportSignal } from 'tracejury';

const MAX_MESSAGE = 240;

/** One line of trace text: redacted, cut, control characters shown. */
const clip = (text: string) => terminalText(text.replace(/\s+/g, ' ').trim(), MAX_MESSAGE + 1);

export function signalLine(s: ReportSignal): string {
  const status =
    s.status === 'review' ? ', gray zone: for review' : s.status === 'finding' ? '' : `, ${s.status}`;
  const waste = s.wasteUsd ? `, wastes ${formatUsd(s.wasteUsd)}` : '';
  const steps = stepsText(s.steps);
  return `${terminalText(s.detector, 80)} (${s.severity}, confidence ${s.confidence.toFixed(2)}${status}${waste})${steps ? ` at ${steps}` : ''}: ${clip(s.message)}`;
}

/** The listed signals, at most `limit`, then each detector's fix hint once. */
export function signalsBlock(signals: readonly ReportSignal[], limit = 10): string {
  const lines = signals.slice(0, limit).map((s) => `  - ${signalLine(s)}`);
  if (signals.length > limit) lines.push(`  … and ${signals.length - limit} more`);
  const hints = [...new Set(signals.slice(0, limit).map((s) => s.detector))]
    .map((id) => [id, findDetector(id)?.meta.fix] as const)
    .filter((e): e is readonly [string, string] => Boolean(e[1]))
    .map(([id, fix]) => `  fix ${terminalText(id, 80)}: ${fix}`);
  return [...lines, ...hints].join('\n');
}

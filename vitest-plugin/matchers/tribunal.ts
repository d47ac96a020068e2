/**
 * toPassTribunal: the received response judged by the tribunal (judge/tribunal.ts) through the
 * worker's session, so the cassette replays verdicts in CI with no API key and the circuit breaker
 * counts the whole worker's verdicts. A trace is judged by its final output, with its input and
 * tool calls as context; anything else is the response itself. INDETERMINATE fails whether or not
 * the assertion is negated: an undecided case is not a pass of either kind (fail-closed).
 */
import { terminalText, type Verdict } from 'tracejury';
import { analyse, tribunalSession, traceAnalyser } from '../worker/context.js';
import { currentTask } from '../worker/currentTask.js';
import { metaOf, recordAnalysis } from '../shared/meta.js';
import { receivedTraces } from '../worker/received.js';
import type { TribunalMatcherOptions } from '../types.js';

interface MatcherThis {
  isNot: boolean;
}

const MAX_REASONING = 160;

function looksLikeTraceInput(received: unknown): boolean {
  if (typeof received === 'string') return false;
  const r = received as { steps?: unknown; trace?: unknown; resourceSpans?: unknown };
  return (
    typeof r === 'object' && r !== null && (Array.isArray(r.steps) || 'trace' in r || 'resourceSpans' in r)
  );
}

/** What the judges read: the response, and what they should know about how it came about. */
function judged(
  received: unknown,
  self: unknown,
): { response: unknown; context?: unknown; traceId?: string } {
  if (!looksLikeTraceInput(received)) return { response: received };
  const [one] = receivedTraces(received);
  const analysis = analyse(one!);
  recordAnalysis(currentTask(self), analysis);
  const { trace } = analysis;
  const toolCalls = trace.steps
    .filter((s) => s.type === 'tool')
    .map((s) => ({ name: s.name, args: s.args, status: s.status, ...(s.error ? { error: s.error } : {}) }));
  return {
    response: trace.output ?? '',
    context: { task: trace.input, toolCalls },
    traceId: trace.id,
  };
}

/** One line of a judge's text: redacted, cut, control characters shown. */
const clip = (text: string | undefined) =>
  terminalText((text ?? '').replace(/\s+/g, ' ').trim(), MAX_REASONING + 1);

export function describeVerdict(v: Verdict, threshold: number): string {
  const passes = v.judges.filter((j) => j.passed).length;
  const head = v.indeterminate
    ? `INDETERMINATE: ${clip(v.reason)}`
    : `score ${v.score.toFixed(2)} and confidence ${v.confidence.toFixed(2)} against threshold ${threshold}, ${passes} of ${v.judges.length} judges passed${v.highDisagreement ? ` (judges disagree: ${v.disagreement.toFixed(2)})` : ''}`;
  const judges = v.judges.map((j) =>
    j.error
      ? `  - ${j.provider}:${j.model}: ${clip(j.error)}`
      : `  - ${j.provider}:${j.model}: score ${j.score?.toFixed(2)}, ${j.passed ? 'pass' : 'fail'} — ${clip(j.reasoning)}`,
  );
  return [head, ...judges].join('\n');
}

export async function toPassTribunal(
  this: MatcherThis,
  received: unknown,
  options: TribunalMatcherOptions = {},
) {
  const task = currentTask(this);
  const what = judged(received, this);
  const config = traceAnalyser().config.tribunal;
  const judges = options.judges ?? config?.judges ?? [];
  if (judges.length === 0)
    throw new Error(
      'toPassTribunal: no judges: pass { judges: [{ provider, model }, …] } or set tribunal.judges in tracejury.yml',
    );
  const threshold = options.threshold ?? config?.threshold ?? 0.8;
  const verdict = await tribunalSession().evaluate({
    ...options,
    judges,
    threshold,
    response: options.response ?? what.response,
    ...(options.context !== undefined || what.context !== undefined
      ? { context: options.context ?? what.context }
      : {}),
    ...(what.traceId && !options.traceId ? { traceId: what.traceId } : {}),
  });
  if (task) metaOf(task).verdicts.push(verdict);
  const decided = !verdict.indeterminate;
  return {
    // Vitest inverts `pass` for .not; INDETERMINATE must fail both ways.
    pass: decided ? verdict.passed : this.isNot,
    message: () =>
      decided && this.isNot
        ? `expected the tribunal to fail the response, but it passed: ${describeVerdict(verdict, threshold)}`
        : `expected the tribunal to ${this.isNot ? 'fail' : 'pass'} the response: ${describeVerdict(verdict, threshold)}`,
  };
}

/**
 * toPassTribunal: the received response judged by the tribunal (judge/tribunal.ts) through the
 * worker's session, so the cassette replays verdicts in CI with no API key and the circuit breaker
 * counts the whole worker's verdicts. A trace is judged by its final output, with its input and
 * tool calls as context; anything else is the response itself. INDETERMINATE fails whether or not
 * the assertion is negated: an undecided case is not a pass of either kind (fail-closed).
 *
 * Before any judge is asked, the options are checked and a rubric that looks like a name must be a
 * built-in one or in `rubrics` / tracejury.yml's `tribunal.rubrics`: a misspelt name would
 * otherwise be sent to the judges as the criterion itself. Async and tracked: a test that does
 * not await it fails (worker/pendingMatchers.ts).
 */
import path from 'node:path';
import { rubricProblem, terminalText, type Verdict } from 'tracejury';
import { analyse, tribunalSession, traceAnalyser, workerSettings } from '../worker/context.js';
import { currentTask, testFileOf } from '../worker/currentTask.js';
import { metaOf } from '../shared/meta.js';
import { receivedTraces } from '../worker/received.js';
import { fullName, recordTrace } from '../worker/savedTraces.js';
import { trackAsyncMatcher } from '../worker/pendingMatchers.js';
import { checkArgument } from './checkArgs.js';
import { TribunalMatcherOptionsSchema, type TribunalMatcherOptions } from './options.js';

const MATCHER = 'toPassTribunal';

interface MatcherThis {
  isNot: boolean;
}

const MAX_REASONING = 160;
/** A judge's error is ours (a cassette miss with the command that records it) or a provider's body. */
const MAX_ERROR = 600;

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
  recordTrace(currentTask(self), analysis);
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

/** One line of a judge's text: redacted, then cut to `max` characters and "…", control characters shown. */
const clip = (text: string | undefined, max = MAX_REASONING) =>
  terminalText((text ?? '').replace(/\s+/g, ' ').trim(), max + 1);

/** The head of an undecided verdict: how many judges failed (each says why below), or why none ran. */
function indeterminateHead(v: Verdict): string {
  const failed = v.judges.filter((j) => j.error).length;
  if (failed > 0)
    return `INDETERMINATE (fail-closed): ${failed} of ${v.judges.length} judges could not judge`;
  return `INDETERMINATE: ${clip((v.reason ?? '').replace(/^INDETERMINATE\s*(\(fail-closed\))?:?\s*/, ''), MAX_ERROR)}`;
}

export function describeVerdict(v: Verdict, threshold: number): string {
  const passes = v.judges.filter((j) => j.passed).length;
  const head = v.indeterminate
    ? indeterminateHead(v)
    : `score ${v.score.toFixed(2)} and confidence ${v.confidence.toFixed(2)} against threshold ${threshold}, ${passes} of ${v.judges.length} judges passed${v.highDisagreement ? ` (judges disagree: ${v.disagreement.toFixed(2)})` : ''}`;
  // A verdict the cassette decided says so, and so does each answer read from it: a committed
  // file, not a judge asked in this run (its diff is what to review).
  const replayed = v.replayed ? ', replayed from the cassette' : '';
  const judges = v.judges.map((j) => {
    const who = `  - ${j.provider}:${j.model}${j.replayed ? ' (replayed)' : ''}`;
    return j.error
      ? `${who}: ${clip(j.error, MAX_ERROR)}`
      : `${who}: score ${j.score?.toFixed(2)}, ${j.passed ? 'pass' : 'fail'} — ${clip(j.reasoning)}`;
  });
  return [`${head}${replayed}`, ...judges].join('\n');
}

/** The command that runs this test file again: what a cassette miss says to run in record mode. */
function rerunCommand(task: ReturnType<typeof currentTask>): string | undefined {
  const file = testFileOf(task);
  if (!file) return undefined;
  const relative = path.relative(process.cwd(), file).split(path.sep).join('/');
  return `${workerSettings().runCommand ?? 'npx vitest run'} ${relative.startsWith('..') ? file : relative}`;
}

async function judge(
  self: MatcherThis,
  received: unknown,
  options: TribunalMatcherOptions,
  rubrics: Record<string, string>,
) {
  const task = currentTask(self);
  const what = judged(received, self);
  const config = traceAnalyser().config.tribunal;
  const judges = options.judges ?? config?.judges ?? [];
  const threshold = options.threshold ?? config?.threshold ?? 0.8;
  const rerun = rerunCommand(task);
  const verdict = await tribunalSession().evaluate({
    ...options,
    judges,
    threshold,
    rubrics,
    response: options.response ?? what.response,
    ...(options.context !== undefined || what.context !== undefined
      ? { context: options.context ?? what.context }
      : {}),
    ...(what.traceId && !options.traceId ? { traceId: what.traceId } : {}),
    ...(rerun ? { rerunCommand: rerun } : {}),
    // The cassette line says which test its answer decides.
    ...(task ? { subject: fullName(task as Parameters<typeof fullName>[0]) } : {}),
  });
  if (task) metaOf(task).verdicts.push(verdict);
  const decided = !verdict.indeterminate;
  return {
    // Vitest inverts `pass` for .not; INDETERMINATE must fail both ways.
    pass: decided ? verdict.passed : self.isNot,
    message: () =>
      decided && self.isNot
        ? `expected the tribunal to fail the response, but it passed: ${describeVerdict(verdict, threshold)}`
        : `expected the tribunal to ${self.isNot ? 'fail' : 'pass'} the response: ${describeVerdict(verdict, threshold)}`,
  };
}

export function toPassTribunal(this: MatcherThis, received: unknown, options: unknown = {}) {
  // Everything that can be wrong with the call fails here, before a judge is asked and whether or
  // not the test awaits the matcher.
  const opts = checkArgument(MATCHER, 'options', TribunalMatcherOptionsSchema, options);
  const config = traceAnalyser().config.tribunal;
  const judges = opts.judges ?? config?.judges ?? [];
  if (judges.length === 0)
    throw new Error(
      `${MATCHER}: no judges: pass { judges: [{ provider, model }, …] } or set tribunal.judges in tracejury.yml`,
    );
  const rubrics = { ...config?.rubrics, ...opts.rubrics };
  const rubric = opts.rubric ?? config?.rubric;
  const problem = rubric === undefined ? undefined : rubricProblem(rubric, rubrics);
  if (problem) throw new TypeError(`${MATCHER}: ${problem}`);
  const task = currentTask(this);
  return trackAsyncMatcher(task, MATCHER, judge(this, received, opts, rubrics), testFileOf(task));
}

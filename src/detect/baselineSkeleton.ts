/**
 * A trace reduced to what the six baseline detectors (STEP_COUNT_INFLATION, SLOW_STEP,
 * CONTEXT_BLOAT, REASONING_STALL, COST_SPIKE, SESSION_LATENCY) and the good-run rule
 * (baseline/learn.ts) read: step types, timings, token counts and the names their messages quote;
 * no prompt, completion, tool argument, result or state. analyze() keeps one per trace whose
 * baseline detectors wait for the input's own baseline, which is known only once every trace has
 * been read, so that the input is read once and no whole trace is held.
 *
 * It is held packed (`packSkeleton`): per step one type letter in a string, one to four numbers in
 * an array of doubles and up to two interned names, some 20–40 bytes a step instead of a few
 * hundred as objects (typed arrays would cost more in buffers than their numbers at this size);
 * `unpackSkeleton` makes the trace again when the detectors run. A detector that comes to read another field must have it
 * kept here: test/detect/baselineSkeleton.test.ts runs the six on whole traces and on their
 * skeletons and expects the same signals.
 */
import { parseTime } from '../trace/measure.js';
import type { Step, Trace } from '../trace/schema.js';

const TYPE_OF = { l: 'llm', t: 'tool', r: 'retrieval', m: 'message', s: 'state' } as const;
const LETTER = { llm: 'l', tool: 't', retrieval: 'r', message: 'm', state: 's' } as const;

export interface PackedSkeleton {
  /** The trace's own fields the detectors and the good-run rule read. */
  head: Pick<Trace, 'id' | 'agentId' | 'agentVersion' | 'status' | 'startedAt' | 'endedAt' | 'outcome'> & {
    /** Whether the run lists the tools it was offered (REASONING_STALL asks only that). */
    listsTools?: boolean;
  };
  /** One letter per step: its type. */
  types: string;
  /**
   * Per step, in order: its duration (NaN: none), its start time in ms when `starts` (NaN: none),
   * and for an LLM call its input and output tokens.
   */
  numbers: number[];
  /** Whether step start times are kept: only when the trace's own times cannot give its duration. */
  starts: boolean;
  /**
   * Per step, in order: an LLM call's model and name (undefined when it has none), a tool's name, a
   * message's sender, a state snapshot's agent; a retrieval has none.
   */
  names: (string | undefined)[];
}

/**
 * Names recur in every trace (models, tools, agents): one string each is kept instead of a copy
 * per step. Bounded, so that an input of unique names cannot grow it without end.
 */
const interned = new Map<string, string>();
const MAX_INTERNED = 10_000;
function intern(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const known = interned.get(name);
  if (known !== undefined) return known;
  if (interned.size < MAX_INTERNED) interned.set(name, name);
  return name;
}

const orNaN = (n: number | undefined) => (n === undefined ? NaN : n);

export function packSkeleton(trace: Trace): PackedSkeleton {
  // Step start times matter only when the trace's own times cannot give its duration (measure.ts).
  const start = parseTime(trace.startedAt);
  const end = parseTime(trace.endedAt);
  const starts = start === undefined || end === undefined || end < start;
  const letters: string[] = [];
  const numbers: number[] = [];
  const names: (string | undefined)[] = [];
  for (const s of trace.steps) {
    letters.push(LETTER[s.type]);
    numbers.push(orNaN(s.durationMs));
    if (starts) numbers.push(orNaN(parseTime(s.startedAt)));
    if (s.type === 'llm') {
      numbers.push(s.usage.inputTokens, s.usage.outputTokens);
      names.push(intern(s.model), intern(s.name));
    } else if (s.type === 'tool') names.push(intern(s.name));
    else if (s.type === 'message') names.push(intern(s.from));
    else if (s.type === 'state') names.push(intern(s.agentId));
  }
  const head: PackedSkeleton['head'] = { id: trace.id, agentId: trace.agentId, status: trace.status };
  if (trace.agentVersion !== undefined) head.agentVersion = trace.agentVersion;
  if (trace.startedAt !== undefined) head.startedAt = trace.startedAt;
  if (trace.endedAt !== undefined) head.endedAt = trace.endedAt;
  if (trace.outcome !== undefined) head.outcome = trace.outcome;
  if (trace.availableTools !== undefined) head.listsTools = trace.availableTools.length > 0;
  // Joined, not appended letter by letter: a string built by += is a chain of one node per letter.
  // The arrays are copied to their length: one grown by push keeps up to twice the room.
  return { head, types: letters.join(''), numbers: numbers.slice(), starts, names: names.slice() };
}

/** The step of a letter, with its name(s) and tokens; timing is added by the caller. */
function stepOf(
  letter: string,
  names: PackedSkeleton['names'],
  k: number,
  numbers: number[],
  n: number,
): Step {
  switch (TYPE_OF[letter as keyof typeof TYPE_OF]) {
    case 'llm': {
      const step: Step = {
        type: 'llm',
        model: names[k]!,
        usage: { inputTokens: numbers[n]!, outputTokens: numbers[n + 1]! },
      };
      if (names[k + 1] !== undefined) step.name = names[k + 1];
      return step;
    }
    case 'tool':
      return { type: 'tool', name: names[k]!, status: 'ok' };
    case 'retrieval':
      return { type: 'retrieval', results: [] };
    case 'message':
      return { type: 'message', from: names[k]!, content: undefined };
    case 'state':
      return { type: 'state', agentId: names[k]!, state: {} };
  }
}

export function unpackSkeleton({ head, types, numbers, starts, names }: PackedSkeleton): Trace {
  const steps: Step[] = new Array<Step>(types.length);
  let n = 0;
  let k = 0;
  for (let i = 0; i < types.length; i++) {
    const letter = types[i]!;
    const durationMs = numbers[n++]!;
    const start = starts ? numbers[n++]! : NaN;
    const step = stepOf(letter, names, k, numbers, n);
    if (letter === 'l') {
      k += 2;
      n += 2;
    } else if (letter !== 'r') k++;
    if (!Number.isNaN(start)) step.startedAt = new Date(start).toISOString();
    if (!Number.isNaN(durationMs)) step.durationMs = durationMs;
    steps[i] = step;
  }
  const { listsTools, ...fields } = head;
  const trace: Trace = { ...fields, steps };
  if (listsTools !== undefined) trace.availableTools = listsTools ? ['(listed)'] : [];
  return trace;
}

/** The skeleton as a trace: what the six baseline detectors decide on (pack and unpack at once). */
export function baselineSkeleton(trace: Trace): Trace {
  return unpackSkeleton(packSkeleton(trace));
}

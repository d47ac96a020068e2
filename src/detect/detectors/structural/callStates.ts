/**
 * Which state of the world each tool call of a run ran against. A repeat is a loop only when
 * nothing the agent did in between could change its outcome: a test re-run after an edit is a new
 * attempt, the same test run twice with nothing written between is not. So the run's calls are
 * numbered by the state they saw, as the writes between them (writes.ts) changed it:
 *
 * - a call that writes nothing, or whose write failed (an edit rejected, `old_str` not found),
 *   leaves the state as it was;
 * - a write that took effect moves the run to a new state — unless it returns to one the run has
 *   been in: the same write again from the state it already produced (a file rewritten with the
 *   same text, `sed -i` run twice), the same write from a state it was made from before (an edit
 *   redone after it was undone), the inverse of the replacement that produced the current state
 *   (`str_replace` of B by A right after A by B), or an editor's `undo_edit`.
 *
 * Two calls ran against the same state when the later one started in the state the earlier one
 * started in or left, or when every write between them is part of a round of calls made again
 * (sameState). Writes are compared exactly (their content is the point); readings may be
 * near-identical (repetition.ts).
 *
 * Worked out once per trace and shared (read-only) by the loop detectors and tier 2: the last trace
 * asked about is kept, as toolCalls in shared.ts.
 */
import { stableJson, toolCalls, type ToolCall } from './shared.js';
import { writeOf, type Replacement } from './writes.js';
import type { Trace } from '../../../trace/schema.js';

/**
 * What a call's write did: nothing (`none`: it writes nothing), nothing because it failed
 * (`failed`), moved the run to a state it had not been in (`new`), or back to one it had (`seen`).
 */
export type WriteEffect = 'none' | 'failed' | 'new' | 'seen';

export interface CallStates {
  /** Per call (its position in the run's tool calls): the state it ran against. */
  before: Int32Array;
  /** The state it left: `before` unless its write took effect. */
  after: Int32Array;
  effect: WriteEffect[];
  /** Per call that writes: its tool name and exact arguments ('' for calls that do not write). */
  writeKey: string[];
  /** Why each writing call was taken as one (writes.ts), '' for the others. */
  writeReason: string[];
}

interface Applied {
  replacement: Replacement;
  before: number;
  after: number;
}

const isInverse = (a: Replacement, b: Replacement): boolean =>
  a.target === b.target && a.from === b.to && a.to === b.from;

/** The states of a run's tool calls, in order (positions as in `calls`). */
export function statesOf(calls: readonly ToolCall[]): CallStates {
  const n = calls.length;
  const before = new Int32Array(n);
  const after = new Int32Array(n);
  const effect: WriteEffect[] = new Array<WriteEffect>(n);
  const writeKey: string[] = new Array<string>(n);
  const writeReason: string[] = new Array<string>(n);
  let current = 0;
  let next = 1;
  const seen = new Set<number>([0]);
  /** `key \0 from-state` → the state that write made from there. */
  const produced = new Map<string, number>();
  /** key → the state the write made the last time it took effect. */
  const lastMade = new Map<string, number>();
  /** States before each effective write, for an editor's undo. */
  const history: number[] = [];
  const applied: Applied[] = [];
  for (let p = 0; p < n; p++) {
    const { step } = calls[p]!;
    before[p] = current;
    const w = writeOf(step);
    writeKey[p] = w.writes ? `${step.name}\u0000${stableJson(step.args)}` : '';
    writeReason[p] = w.writes ? w.reason : '';
    if (!w.writes || (step.status === 'error' && !w.effectEvenIfFailed)) {
      after[p] = current;
      effect[p] = w.writes ? 'failed' : 'none';
      continue;
    }
    const key = writeKey[p]!;
    let to: number;
    const undone = w.replacement
      ? applied.findLast((a) => a.after === current && isInverse(a.replacement, w.replacement!))
      : undefined;
    if (w.undo) to = history.pop() ?? current;
    else if (undone) to = undone.before;
    else if (lastMade.get(key) === current) to = current;
    else to = produced.get(`${key}\u0000${current}`) ?? next++;
    if (!w.undo) {
      produced.set(`${key}\u0000${current}`, to);
      lastMade.set(key, to);
    }
    // Only a change is an edit to undo.
    if (!w.undo && to !== current) {
      history.push(current);
      if (w.replacement) applied.push({ replacement: w.replacement, before: current, after: to });
    }
    effect[p] = seen.has(to) ? 'seen' : 'new';
    seen.add(to);
    after[p] = to;
    current = to;
  }
  return { before, after, effect, writeKey, writeReason };
}

/**
 * The later call (position q) ran against the state the earlier one (p) ran against or left — or
 * every write between them belongs to a round of calls made again: a write made one round (q − p
 * calls) earlier or later, identically (the same four messages sent twice, in the same order: the
 * second round changes nothing the first did not).
 */
export function sameState(states: CallStates, p: number, q: number): boolean {
  if (states.before[q] === states.before[p] || states.before[q] === states.after[p]) return true;
  const k = q - p;
  const keys = states.writeKey;
  for (let r = p + 1; r < q; r++) {
    if (states.after[r] === states.before[r]) continue;
    const key = keys[r]!;
    if (keys[r - k] !== key && (r + k >= keys.length || keys[r + k] !== key)) return false;
  }
  return true;
}

let lastTrace: Trace | undefined;
let lastSteps = 0;
let lastStates: CallStates | undefined;

/** The states of the trace's tool calls (toolCalls order), worked out once per trace. */
export function callStates(trace: Trace): CallStates {
  if (trace === lastTrace && trace.steps.length === lastSteps && lastStates) return lastStates;
  lastStates = statesOf(toolCalls(trace));
  lastTrace = trace;
  lastSteps = trace.steps.length;
  return lastStates;
}

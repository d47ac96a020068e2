/**
 * What the user asked the agent to do, as the topical stems and the verbs a request inside data is
 * compared with (departure.ts, readerRequests.ts): a request the user's own task speaks of ("pay my
 * rent" and a bill's "please pay the amount", "fix the bug in the parser") is not foreign to the run. Read from the trace input (without its operator keys),
 * the user messages of the LLM calls and the messages of the user's senders, up to TASK_CHARS.
 */
import type { Trace } from '../../trace/schema.js';
import { topicalStems } from './contentWords.js';
import { fieldOf } from './fieldText.js';
import { REQUEST_VERBS } from './requestLexicon.js';

/** How much of the user's words is read for the task (its first messages say it). */
const TASK_CHARS = 8000;

/** The user's task as a request inside data is compared with it. */
export interface UserTask {
  /** Topical stems of what the user wrote (contentWords.ts). */
  stems: Set<string>;
  /** The verbs of requests the user wrote ("pay my rent" → pay): a request for the same is the task's. */
  verbs: Set<string>;
}

export function userTask(trace: Trace, userSenders: ReadonlySet<string>): UserTask {
  const parts: string[] = [];
  let length = 0;
  const add = (value: unknown, skipKeys: boolean) => {
    if (length >= TASK_CHARS || value === undefined) return;
    const f = fieldOf(value, skipKeys, TASK_CHARS - length);
    if (f === undefined) return;
    parts.push(f.capped);
    length += f.capped.length;
  };
  add(trace.input, true);
  for (const s of trace.steps) {
    if (length >= TASK_CHARS) break;
    if (s.type === 'message' && userSenders.has(s.from.toLowerCase())) add(s.content, false);
    else if (s.type === 'llm' && Array.isArray(s.input)) {
      const user = s.input.find((m) => m.role.toLowerCase() === 'user');
      if (user) add(user.content, false);
      // The first call's user message is the task; later calls replay it.
      if (user) break;
    }
  }
  const text = parts.join('\n');
  const verbs = new Set((text.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => REQUEST_VERBS.has(w)));
  return { stems: new Set(topicalStems(text).keys()), verbs };
}

/**
 * Runs in the shapes of the public recordings attribution is measured on, written here by hand
 * (no dataset text): a Who&When log (Magentic-One or CaptainAgent: `history` of speakers), a
 * τ-bench run (`traj` with tool calls and `info.task.actions`), an AgentDojo run (an injection in
 * a tool result). Each goes through the real importer, so the steps are numbered as in a report.
 */
import type { ImportedTrace } from '../../src/trace/importer.js';
import { openaiMessagesImporter } from '../../src/trace/formats/openaiMessages.js';
import { TraceSchema, type Trace } from '../../src/trace/schema.js';

function imported(value: unknown): Trace {
  const problems: unknown[] = [];
  const reader = openaiMessagesImporter.createReader({ problem: (p) => problems.push(p) });
  const traces: ImportedTrace[] = [...reader.push(value, 1), ...reader.end()];
  if (problems.length > 0 || traces.length !== 1)
    throw new Error(`fixture did not import: ${JSON.stringify(problems)}`);
  return TraceSchema.parse({ agentId: 'fixture', ...traces[0]!.trace });
}

/** A Who&When-shaped log: `[role, content]` or `[role, content, name]` per history entry. */
export function whoAndWhenRun(
  history: ([string, string] | [string, string, string])[],
  fields: { question?: string } = {},
): Trace {
  return imported({
    question: fields.question ?? history[0]![1],
    question_ID: 'fixture-q',
    is_correct: false,
    history: history.map(([role, content, name]) => ({ role, content, ...(name ? { name } : {}) })),
  });
}

export interface Call {
  name: string;
  args?: Record<string, unknown>;
  /** The tool message's content ("Error: …" is a failed call, as τ-bench writes it). */
  result: string;
}

/** One assistant turn: text, and the calls it made with their results. */
export type Turn = { say?: string; calls?: Call[] } | { user: string };

let callIds = 0;
function traj(turns: readonly Turn[], request: string): unknown[] {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a customer service agent. Follow the policy.' },
    { role: 'user', content: request },
  ];
  for (const t of turns) {
    if ('user' in t) {
      messages.push({ role: 'user', content: t.user });
      continue;
    }
    const calls = (t.calls ?? []).map((c) => ({ ...c, id: `call_${++callIds}` }));
    messages.push({
      role: 'assistant',
      content: t.say ?? null,
      ...(calls.length > 0
        ? {
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) },
            })),
          }
        : {}),
    });
    for (const c of calls)
      messages.push({ role: 'tool', tool_call_id: c.id, name: c.name, content: c.result });
  }
  return messages;
}

/** A τ-bench-shaped run: the agent's turns, the task's expected actions, the reward. */
export function tauBenchRun(
  turns: readonly Turn[],
  expected: { name: string; kwargs: Record<string, unknown> }[],
  reward = 0,
): Trace {
  return imported([
    {
      task_id: 7,
      trial: 0,
      reward,
      info: { task: { user_id: 'u1', actions: expected, instruction: 'change my flight', outputs: [] } },
      traj: traj(turns, 'Hi, I want to change my booking.'),
    },
  ]);
}

/** An AgentDojo-shaped run: a user task, then the agent's turns (a tool result may carry an injection). */
export function agentDojoRun(
  turns: readonly Turn[],
  request = 'Summarise the note in my files and send it to Ana.',
): Trace {
  return imported({ messages: traj(turns, request) });
}

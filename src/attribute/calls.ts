/**
 * The calls of a run and how each ended, read one way whatever the recording: tool steps (their
 * status and result), and code runs in a multi-agent transcript, where an executor agent's message
 * reports what the code a worker wrote did ("exitcode: 1 (execution failed)", a traceback, "The
 * script ran, then exited with an error"). A code run belongs to the worker step that wrote the
 * code: the executor only ran it.
 */
import type { Step, Trace } from '../trace/schema.js';
import type { RoleOf } from './roles.js';

/** How a call ended: failed, returned nothing, or returned something. */
export type CallOutcome = 'error' | 'empty' | 'ok';

export interface Call {
  /** The step that issued the call: the tool step, or the worker's message whose code was run. */
  step: number;
  /** Where its result is: the tool step itself, or the executor's message. */
  resultStep: number;
  /** The tool's name, or "code" for a code run. */
  name: string;
  outcome: CallOutcome;
  /** The error, or the first line of a failed run's output, when there is one. */
  error?: string;
}

const FAILED_RUN = [
  /\bexit\s*code:?\s*[1-9]\d*/i,
  /\bexitcode:\s*[1-9]\d*/i,
  /\bexecution failed\b/i,
  /\bexited with an error\b/i,
  /^Traceback \(most recent call last\)/m,
];
const FINISHED_RUN = [/\bexitcode:\s*0\b/i, /\bexit\s*code:?\s*0\b/i, /\bran and exited normally\b/i];
/** What a run printed, after the executor's preamble. */
const RUN_OUTPUT = /(?:Code output|Its output was|Output):\s*([\s\S]*)$/i;
/** A result that holds nothing: empty, or an empty list, object or null as a program prints it. */
const NOTHING = /^\s*(?:\[\s*\]|\{\s*\}|\(\s*\)|None|null|nil|undefined|NaN|""|'')?\s*$/i;

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === undefined) return undefined;
  if (Array.isArray(value) && value.every((p) => typeof p === 'object' && p !== null && 'text' in p))
    return value.map((p) => String((p as { text: unknown }).text)).join('');
  return JSON.stringify(value);
}

/** Whether a recorded result holds nothing (a tool that ran and returned nothing). */
function isEmptyResult(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object' && value !== undefined) return Object.keys(value).length === 0;
  return typeof value === 'string' && NOTHING.test(value);
}

function firstLine(text: string, max = 160): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line.trim();
}

/** A code run an executor reported, or undefined when its message reports none. */
function codeRunOutcome(content: string): { outcome: CallOutcome; error?: string } | undefined {
  if (FAILED_RUN.some((p) => p.test(content))) {
    const traceback = /^(\w+(?:Error|Exception)\b.*)$/m.exec(content)?.[1];
    return { outcome: 'error', error: firstLine(traceback ?? content) };
  }
  if (!FINISHED_RUN.some((p) => p.test(content))) return undefined;
  const output = RUN_OUTPUT.exec(content)?.[1] ?? '';
  return { outcome: NOTHING.test(output) ? 'empty' : 'ok' };
}

/**
 * The agent the recording says owns each step: its own `agent`; a tool step without one, that of
 * the LLM step that issued it; undefined when it names none (a single-agent recording, the person
 * asking).
 */
export function stepAgents(trace: Trace): (string | undefined)[] {
  return trace.steps.map((s) => {
    const own = agentField(s);
    if (own !== undefined || s.type !== 'tool' || s.issuedBy === undefined) return own;
    const issuer = trace.steps[s.issuedBy - 1];
    return issuer ? agentField(issuer) : undefined;
  });
}

function agentField(s: Step): string | undefined {
  return s.type === 'llm' || s.type === 'tool' || s.type === 'message' ? s.agent : undefined;
}

/** Every call of the run, in step order. */
export function callsOf(trace: Trace, agents: readonly (string | undefined)[], roleOf: RoleOf): Call[] {
  const calls: Call[] = [];
  trace.steps.forEach((s, i) => {
    const n = i + 1;
    if (s.type === 'tool') {
      if (s.status === 'error')
        calls.push({
          step: n,
          resultStep: n,
          name: s.name,
          outcome: 'error',
          error: firstLine(s.error ?? textOf(s.result) ?? 'error'),
        });
      else if (s.status === 'ok' && s.result !== undefined)
        calls.push({
          step: n,
          resultStep: n,
          name: s.name,
          outcome: isEmptyResult(s.result) ? 'empty' : 'ok',
        });
      return;
    }
    if (s.type !== 'message' || roleOf(s.agent) !== 'executor') return;
    const content = textOf(s.content);
    const run = content === undefined ? undefined : codeRunOutcome(content);
    if (!run) return;
    // The worker step the executor ran the code of: the nearest earlier step a worker owns.
    for (let k = i - 1; k >= 0; k--) {
      const owner = agents[k];
      if (owner === undefined || roleOf(owner) !== 'worker') continue;
      calls.push({ step: k + 1, resultStep: n, name: 'code', ...run });
      return;
    }
  });
  return calls;
}

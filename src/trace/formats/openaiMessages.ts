/**
 * Chat transcripts in OpenAI's message shape: `{messages: [...]}`, a bare array of messages, JSONL of
 * either (one transcript a line), or an array of transcripts. Two published shapes are recognised:
 *
 * - τ-bench runs: an array of `{task_id, trial, reward, info, traj}`, `traj` being the message list.
 *   One trace per run, id `task-<task_id>-trial-<trial>`; reward, task and trial go to metadata,
 *   the reward to `outcome` (success when it is 1) and the task to `taskId` (so that `tracejury
 *   diff` pairs the trials of one task). AgentDojo's runs, converted to the same shape, name their
 *   task in `info` (`suite`, `user_task_id`, `injection_task_id`); their `task_id` also names the
 *   pipeline, so the task key is `<suite>/<user task>/<injection task or none>` instead.
 * - Who&When logs: `{question, question_ID, history: [{role, name?, content}], mistake_agent,
 *   mistake_step, mistake_reason, ground_truth, level, is_correct}`. Every history entry is a
 *   `message` step (`from` = name ?? role), so `metadata.mistakeStepNumber` (= mistake_step + 1)
 *   is the number of the blamed step; input = question; id = question_ID (else a hash of the question).
 *   Each step's `agent` is its speaker's agent (speakerAgent: "Orchestrator (thought)" is the
 *   Orchestrator's; the person asking is no agent).
 *
 * Mapping of an OpenAI transcript:
 * - system / developer messages are not steps; they are part of every LLM step's input;
 * - the first user message is the trace's input; later user messages are `message` steps from 'user';
 * - a message's `name` is the agent that owns its step (an assistant's LLM step and the tool calls it
 *   issued; a named user turn, which is another agent speaking in AutoGen's group chats);
 * - an assistant message is an `llm` step: model from the message, the transcript's `model` or
 *   `metadata.model`, else 'unknown'; input = the messages before it; output = the assistant message
 *   (with its tool calls); usage from `usage` when present (OpenAI, Anthropic or Gemini shape, cached
 *   and cache-write tokens included: see providerUsage.ts), else 0;
 * - each tool call of an assistant message is a `tool` step, right after that message's `llm` step,
 *   whether or not a result came back: name and arguments from the call (arguments parsed from their
 *   JSON string, kept as the raw string when they do not parse, since malformed arguments are the
 *   agent's data, not bad input), `callId` = the call's id, `issuedBy` = the `llm` step's number
 *   (the calls of one message are one batch). With no result its status is 'unknown';
 * - a `tool` (or legacy `function`) message is the result of one of those calls: the call with its
 *   `tool_call_id`; without one (agentevals-style transcripts, legacy function messages), the first
 *   unanswered call of the latest assistant message, of the message's `name` when it gives one. It
 *   sets the step's result = content and status: 'error' only when the content starts with "Error:"
 *   (what τ-bench's environment returns); nothing cleverer, so a tool's normal output is never
 *   mistaken for a failure. A result that answers no call is a warning (file, line, field) and no
 *   step: no call of the model's asked for it;
 * - the trace's output is the content of the last assistant message that has some; status is 'ok'
 *   (a transcript records no failure of its own; labels such as reward stay in metadata).
 *
 * Trace ids are unique within one reader (one file): a repeated id gets a `-2`, `-3`, … suffix.
 */
import { createHash } from 'node:crypto';
import { isRecord, type ImportSink, type ImportedTrace, type Importer } from '../importer.js';
import type { ChatMessage, TraceInput } from '../schema.js';
import { outcomeFromTauReward, outcomeFromWhoAndWhen } from '../outcome.js';
import { callUsage } from './providerUsage.js';

type StepInput = NonNullable<TraceInput['steps']>[number];
type LlmStepInput = Extract<StepInput, { type: 'llm' }>;
type ToolCall = NonNullable<ChatMessage['toolCalls']>[number];

/** A tool-call argument string parsed as JSON, or the string itself when it is not JSON. */
export function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

function toToolCalls(value: unknown): ToolCall[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const calls: ToolCall[] = [];
  for (const c of value) {
    if (!isRecord(c)) continue;
    const fn = isRecord(c.function) ? c.function : c;
    const name = fn.name;
    if (typeof name !== 'string') continue;
    const call: ToolCall = { name };
    if (typeof c.id === 'string') call.id = c.id;
    const args = fn.arguments ?? fn.args ?? fn.input;
    if (args !== undefined) call.arguments = parseArguments(args);
    calls.push(call);
  }
  return calls;
}

/** One OpenAI-style message (snake_case tool fields) as tracejury's ChatMessage. */
export function toChatMessage(m: Record<string, unknown>): ChatMessage {
  const msg: ChatMessage = { role: typeof m.role === 'string' ? m.role : 'unknown' };
  if (typeof m.name === 'string') msg.name = m.name;
  if (m.content !== undefined && m.content !== null) msg.content = m.content;
  const calls = toToolCalls(m.tool_calls ?? m.toolCalls);
  if (calls && calls.length > 0) msg.toolCalls = calls;
  else if (isRecord(m.function_call) && typeof m.function_call.name === 'string') {
    msg.toolCalls = [{ name: m.function_call.name, arguments: parseArguments(m.function_call.arguments) }];
  }
  const callId = m.tool_call_id ?? m.toolCallId;
  if (typeof callId === 'string') msg.toolCallId = callId;
  return msg;
}

/** A message list as ChatMessages; entries that are not objects become `{role: 'unknown', content}`. */
export function toChatMessages(list: unknown[]): ChatMessage[] {
  return list.map((m) => (isRecord(m) ? toChatMessage(m) : { role: 'unknown', content: m }));
}

function looksLikeMessage(v: unknown): boolean {
  return (
    isRecord(v) && typeof v.role === 'string' && ('content' in v || 'tool_calls' in v) && !('steps' in v)
  );
}

function looksLikeTranscript(v: unknown): boolean {
  if (!isRecord(v)) return false;
  if ('steps' in v || 'observations' in v || 'resourceSpans' in v || 'spanId' in v) return false;
  // A records line that happens to carry its prompt as `messages` is not a transcript.
  if ('traceId' in v && 'usage' in v) return false;
  if (Array.isArray(v.messages)) return v.messages.length > 0 && looksLikeMessage(v.messages[0]);
  if (Array.isArray(v.traj)) return v.traj.length === 0 || looksLikeMessage(v.traj[0]);
  if (Array.isArray(v.history)) {
    return (
      'question' in v || 'mistake_agent' in v || (v.history.length > 0 && looksLikeMessage(v.history[0]))
    );
  }
  return false;
}

function toolNames(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const names = value
    .map((t) =>
      isRecord(t) ? (isRecord(t.function) ? t.function.name : t.name) : typeof t === 'string' ? t : undefined,
    )
    .filter((n): n is string => typeof n === 'string');
  return names.length > 0 ? names : undefined;
}

function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    // Content parts: [{type: 'text', text}, …].
    const text = content
      .map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : typeof p === 'string' ? p : ''))
      .join('');
    return text;
  }
  return undefined;
}

const TOOL_ERROR = /^\s*error\s*:/i;

type ToolStepInput = Extract<StepInput, { type: 'tool' }>;

/** A tool call an assistant message issued, and whether a result answered it yet. */
interface IssuedCall {
  step: ToolStepInput;
  id?: string;
  answered: boolean;
}

/**
 * The step of a call the model issued; its result (and so its status) is not known yet. It
 * belongs to the agent whose message issued it.
 */
function toolStepOf(call: ToolCall, issuedBy: number, agent: string | undefined): ToolStepInput {
  return {
    type: 'tool',
    name: call.name,
    ...(call.arguments !== undefined ? { args: call.arguments } : {}),
    status: 'unknown',
    ...(call.id ? { callId: call.id } : {}),
    issuedBy,
    ...(agent ? { agent } : {}),
  };
}

/** A scalar id as a task key part, or undefined. */
const idText = (v: unknown): string | undefined =>
  (typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v))
    ? String(v)
    : undefined;

/**
 * The task of a τ-bench-shaped run: AgentDojo's suite, user task and injection task when `info`
 * names a user task (its `task_id` also names the pipeline, which would keep two pipelines' runs
 * of one task apart), else τ-bench's `task_id`.
 */
function taskOfRun(taskId: unknown, info: Record<string, unknown> | undefined): string | undefined {
  const userTask = idText(info?.user_task_id);
  if (userTask !== undefined)
    return [idText(info?.suite), userTask, idText(info?.injection_task_id) ?? 'none']
      .filter((p) => p !== undefined)
      .join('/');
  return idText(taskId);
}

/** Who&When's speakers that are the person asking, not an agent of the team. */
const ASKERS = new Set(['human', 'user']);

/**
 * The agent a multi-agent log's speaker is: Magentic-One writes one agent's turns under several
 * roles ("Orchestrator (thought)", "Orchestrator (-> WebSurfer)"), all the Orchestrator's. The
 * person asking ("human", an unnamed "user") is no agent.
 */
export function speakerAgent(name: string | undefined, role: string | undefined): string | undefined {
  if (name !== undefined && name.trim() !== '') return name.trim();
  if (role === undefined || ASKERS.has(role.trim().toLowerCase())) return undefined;
  const agent = role.replace(/\s*\([^)]*\)\s*$/, '').trim();
  return agent === '' ? undefined : agent;
}

interface Converted {
  steps: StepInput[];
  input?: unknown;
  output?: unknown;
}

export const openaiMessagesImporter: Importer = {
  format: 'openai-messages',
  sniff(value) {
    if (Array.isArray(value)) {
      const first: unknown = value[0];
      if (first === undefined) return false;
      return (
        looksLikeMessage(first) ||
        looksLikeTranscript(first) ||
        (Array.isArray(first) && first.length > 0 && looksLikeMessage(first[0]))
      );
    }
    return looksLikeTranscript(value);
  },
  createReader(sink: ImportSink) {
    const seen = new Set<string>();
    let count = 0;

    const uniqueId = (id: string): string => {
      let candidate = id;
      for (let n = 2; seen.has(candidate); n++) candidate = `${id}-${n}`;
      seen.add(candidate);
      return candidate;
    };

    /** OpenAI messages → steps; bad entries are reported under `path` and skipped. */
    const convert = (list: unknown[], line: number | undefined, path: string, model: string): Converted => {
      const out: Converted = { steps: [] };
      const history: ChatMessage[] = [];
      /** Every tool call issued so far, for results that name their call by id. */
      const issued: IssuedCall[] = [];
      /** The calls of the latest assistant message: what a result without an id can answer. */
      let latest: IssuedCall[] = [];
      let sawUser = false;

      /** The call a tool result answers, or undefined (with a warning) when it answers none. */
      const answered = (msg: ChatMessage, at: string): IssuedCall | undefined => {
        const id = msg.toolCallId || undefined;
        if (id !== undefined) {
          const byId = issued.find((c) => c.id === id && !c.answered);
          if (byId) return byId;
        }
        // By order among the latest message's unanswered calls, by name where the result gives one.
        // A result whose id names no call can still answer a call that was recorded without an id.
        const byOrder = latest.find(
          (c) =>
            !c.answered &&
            (id === undefined || c.id === undefined) &&
            (msg.name === undefined || c.step.name === msg.name),
        );
        if (byOrder) return byOrder;
        const what = id !== undefined ? `tool_call_id ${JSON.stringify(id)}` : 'no tool_call_id';
        const named = msg.name !== undefined ? ` named ${JSON.stringify(msg.name)}` : '';
        sink.warning?.({
          line,
          field: at,
          message:
            `a tool result with ${what} answers no unanswered tool call${named} of the assistant ` +
            'message before it; it is not read as a step (give it the tool_call_id of the call it answers)',
        });
        return undefined;
      };
      list.forEach((raw, i) => {
        const at = `${path}[${i}]`;
        if (!isRecord(raw)) {
          sink.problem({ line, field: at, message: 'expected a message object {role, content}' });
          return;
        }
        if (typeof raw.role !== 'string') {
          sink.problem({
            line,
            field: `${at}.role`,
            message: 'missing role; expected system, user, assistant or tool',
          });
          return;
        }
        if (raw.tool_calls !== undefined && raw.tool_calls !== null && !Array.isArray(raw.tool_calls)) {
          sink.problem({ line, field: `${at}.tool_calls`, message: 'expected an array of tool calls' });
          return;
        }
        const msg = toChatMessage(raw);
        const role = raw.role;
        if (role === 'system' || role === 'developer') {
          // Context for the LLM calls, not an action of the run.
        } else if (role === 'user') {
          if (!sawUser) {
            out.input = msg.content;
            sawUser = true;
          } else {
            out.steps.push({
              type: 'message',
              from: msg.name ?? 'user',
              content: msg.content ?? '',
              // A named user turn is another agent speaking (AutoGen writes them so).
              ...(msg.name ? { agent: msg.name } : {}),
            });
          }
        } else if (role === 'assistant') {
          const step: LlmStepInput = {
            type: 'llm',
            model: typeof raw.model === 'string' ? raw.model : model,
            input: [...history],
            output: msg,
            usage: { inputTokens: 0, outputTokens: 0 },
            ...(msg.name ? { agent: msg.name } : {}),
          };
          const usage = isRecord(raw.usage) ? callUsage(raw.usage) : undefined;
          if (usage) step.usage = usage;
          const finish = raw.finish_reason ?? raw.finishReason;
          if (typeof finish === 'string') step.finishReason = finish;
          out.steps.push(step);
          const issuedBy = out.steps.length;
          latest = (msg.toolCalls ?? []).map((c) => {
            const call: IssuedCall = { step: toolStepOf(c, issuedBy, msg.name), answered: false };
            if (c.id) call.id = c.id;
            out.steps.push(call.step);
            issued.push(call);
            return call;
          });
          const text = contentText(msg.content);
          if (text !== undefined && text.trim() !== '') out.output = msg.content;
        } else if (role === 'tool' || role === 'function') {
          const call = answered(msg, at);
          if (call) {
            call.answered = true;
            const failed = typeof msg.content === 'string' && TOOL_ERROR.test(msg.content);
            if (msg.content !== undefined) call.step.result = msg.content;
            call.step.status = failed ? 'error' : 'ok';
            if (failed) call.step.error = msg.content as string;
            if (call.step.callId === undefined && msg.toolCallId) call.step.callId = msg.toolCallId;
          }
        } else {
          out.steps.push({
            type: 'message',
            from: msg.name ?? role,
            content: msg.content ?? '',
            ...(msg.name ? { agent: msg.name } : {}),
          });
        }
        history.push(msg);
      });
      return out;
    };

    const fromMessages = (
      list: unknown[],
      t: Record<string, unknown> | undefined,
      line: number | undefined,
      path: string,
    ): ImportedTrace => {
      count++;
      const metadata = t && isRecord(t.metadata) ? t.metadata : undefined;
      const model = t?.model ?? metadata?.model;
      const converted = convert(list, line, path, typeof model === 'string' ? model : 'unknown');
      const rawId = t?.id ?? metadata?.id;
      const trace: TraceInput = {
        id: uniqueId(
          typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : `transcript-${count}`,
        ),
        status: 'ok',
        steps: converted.steps,
      };
      const agentId = t?.agentId ?? metadata?.agentId;
      if (typeof agentId === 'string') trace.agentId = agentId;
      const sessionId = t?.sessionId ?? t?.session_id;
      if (typeof sessionId === 'string') trace.sessionId = sessionId;
      if (converted.input !== undefined) trace.input = converted.input;
      if (converted.output !== undefined) trace.output = converted.output;
      const tools = toolNames(t?.tools) ?? toolNames(t?.functions);
      if (tools) trace.availableTools = tools;
      if (metadata) trace.metadata = metadata;
      return { trace, line };
    };

    const fromTauBench = (
      run: Record<string, unknown>,
      line: number | undefined,
      path: string,
    ): ImportedTrace => {
      count++;
      const info = isRecord(run.info) ? run.info : undefined;
      const converted = convert(
        run.traj as unknown[],
        line,
        `${path}traj`,
        typeof run.model === 'string' ? run.model : 'unknown',
      );
      const base =
        run.task_id !== undefined && run.task_id !== null
          ? `task-${String(run.task_id)}${run.trial !== undefined && run.trial !== null ? `-trial-${String(run.trial)}` : ''}`
          : `run-${count}`;
      const trace: TraceInput = {
        id: uniqueId(base),
        status: 'ok',
        steps: converted.steps,
        metadata: {
          source: 'tau-bench',
          task_id: run.task_id,
          trial: run.trial,
          reward: run.reward,
          info: run.info,
        },
      };
      const outcome = outcomeFromTauReward(run.reward);
      if (outcome) trace.outcome = outcome;
      const task = taskOfRun(run.task_id, info);
      if (task !== undefined) trace.taskId = task;
      if (converted.input !== undefined) trace.input = converted.input;
      if (converted.output !== undefined) trace.output = converted.output;
      const tools = toolNames(run.tools) ?? toolNames(info?.tools);
      if (tools) trace.availableTools = tools;
      return { trace, line };
    };

    const fromWhoAndWhen = (
      log: Record<string, unknown>,
      line: number | undefined,
      path: string,
    ): ImportedTrace => {
      count++;
      const steps: StepInput[] = [];
      (log.history as unknown[]).forEach((h, i) => {
        if (!isRecord(h)) {
          sink.problem({
            line,
            field: `${path}history[${i}]`,
            message: 'expected a message object {role, content}',
          });
          // Keep numbering aligned with mistake_step: the entry is still a (contentless) turn.
          steps.push({ type: 'message', from: 'unknown', content: h });
          return;
        }
        const name = typeof h.name === 'string' ? h.name : undefined;
        const role = typeof h.role === 'string' ? h.role : undefined;
        const agent = speakerAgent(name, role);
        const step: StepInput = {
          type: 'message',
          from: name ?? role ?? 'unknown',
          content: h.content ?? '',
          ...(agent ? { agent } : {}),
        };
        // "Orchestrator (-> WebSurfer)" names the addressee.
        const to = typeof h.role === 'string' ? /\(->\s*([^)]+)\)\s*$/.exec(h.role)?.[1] : undefined;
        if (to) step.to = to.trim();
        steps.push(step);
      });
      const question = typeof log.question === 'string' ? log.question : undefined;
      const rawId = log.question_ID ?? log.question_id;
      const base =
        typeof rawId === 'string' || typeof rawId === 'number'
          ? String(rawId)
          : `q-${createHash('sha256')
              .update(question ?? JSON.stringify(log.history))
              .digest('hex')
              .slice(0, 12)}`;
      const metadata: Record<string, unknown> = { source: 'who-and-when' };
      for (const key of [
        'question_ID',
        'level',
        'ground_truth',
        'is_correct',
        'is_corrected',
        'mistake_agent',
        'mistake_step',
        'mistake_reason',
        'mistake_type',
      ]) {
        if (log[key] !== undefined) metadata[key] = log[key];
      }
      const stepIndex = typeof log.mistake_step === 'number' ? log.mistake_step : Number(log.mistake_step);
      if (
        log.mistake_step !== undefined &&
        log.mistake_step !== '' &&
        Number.isInteger(stepIndex) &&
        stepIndex >= 0
      ) {
        metadata.mistakeStepNumber = stepIndex + 1;
      }
      if (isRecord(log.system_prompt)) metadata.agents = Object.keys(log.system_prompt);
      const trace: TraceInput = { id: uniqueId(base), status: 'ok', steps, metadata };
      const outcome = outcomeFromWhoAndWhen(log);
      if (outcome) trace.outcome = outcome;
      if (question !== undefined) trace.input = question;
      return { trace, line };
    };

    const readOne = (value: unknown, line: number | undefined, path: string): ImportedTrace[] => {
      const field = path.replace(/\.$/, '') || undefined;
      if (Array.isArray(value)) return [fromMessages(value, undefined, line, path.replace(/\.$/, ''))];
      if (!isRecord(value)) {
        sink.problem({ line, field, message: 'expected a chat transcript {messages: [...]}' });
        return [];
      }
      if (Array.isArray(value.traj)) return [fromTauBench(value, line, path)];
      if (Array.isArray(value.history)) return [fromWhoAndWhen(value, line, path)];
      if (Array.isArray(value.messages))
        return [fromMessages(value.messages, value, line, `${path}messages`)];
      const bad = ['messages', 'traj', 'history'].find((k) => k in value);
      sink.problem({
        line,
        field: bad ? `${path}${bad}` : field,
        message: bad ? 'expected an array of messages' : 'expected a chat transcript {messages: [...]}',
      });
      return [];
    };

    return {
      push(value, line) {
        if (Array.isArray(value)) {
          if (value.length === 0) return [];
          // A bare message list is one transcript; otherwise each element is one.
          if (looksLikeMessage(value[0])) return readOne(value, line, '');
          return value.flatMap((v, i) => readOne(v, line, `[${i}].`));
        }
        return readOne(value, line, '');
      },
      end: () => [],
    };
  },
};

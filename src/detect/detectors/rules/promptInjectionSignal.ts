/**
 * PROMPT_INJECTION_SIGNAL: instructions addressed to the model inside data the agent read, and
 * jailbreak attempts in the user's own turn.
 *
 * Two channels, scanned differently, because who wrote the text decides what it means:
 *
 * - **Data** — tool results and errors, retrieved documents, fetched pages, messages from other
 *   agents, tool / function messages of an LLM input: text the agent read, written by anyone. An
 *   injection there is an instruction addressed to the model (cues.ts): a passage that speaks to
 *   the model, overrides or reorders its task and asks it to act. The severity follows the
 *   evidence and what the agent did next (dataSeverity): critical only when an override addressed
 *   to the model asks for an action and a later tool call carries its target; medium when the
 *   passage names targets that no later call carries (attacked, not compromised); high otherwise;
 *   the gray zone (escalated to later tiers) when the passage is unclear.
 * - **The user's turn** — the trace input, user messages of an LLM input, message steps from the
 *   user: written by the operator (a harness's task template, often in XML-like tags) or by the
 *   person the agent serves. That is not an injection into data and never a critical finding;
 *   a direct jailbreak attempt there (a strong pattern of instruction override, role-play /
 *   jailbreak or system-prompt extraction) is still reported, at `user_turn_severity` (medium by
 *   default, `off` to drop it), so the old scan of user input does not go silent.
 *
 * Never scanned: system / developer prompts and the agent's own outputs (quoting "ignore previous
 * instructions" in a system prompt is defence, not attack).
 *
 * Cost: see scanner.ts (a prefilter walk per field, then only the patterns whose triggers occur).
 * An LLM input message already seen in an earlier call is neither walked nor scanned again (chat
 * history is replayed on every call, which would make the work quadratic).
 */
import { z } from 'zod';
import { defineDetector, type SignalDraft } from '../../detector.js';
import type { Severity } from '../../signal.js';
import { CUE_LABELS, CUES, type Cue, type CueSet } from '../../injection/cues.js';
import { fieldOf, passingField, type Field } from '../../injection/fieldText.js';
import { followedFrom, type Followed } from '../../injection/followed.js';
import {
  CATEGORY_LABELS,
  INJECTION_PATTERNS,
  type InjectionCategory,
  type InjectionPattern,
} from '../../injection/patterns.js';
import {
  REQUEST_LABELS,
  strongestRequest,
  type ReaderRequest,
  type RequestBoost,
  type RequestContext,
} from '../../injection/readerRequests.js';
import {
  scanCapped,
  sentenceEvidence,
  type InjectionMatch,
  type ScanOptions,
  type ScanWants,
} from '../../injection/scanner.js';
import { userTask, type UserTask } from '../../injection/userTask.js';
import type { Trace } from '../../../trace/schema.js';
import { didYouMean } from '../../../util/nearest.js';
import { round3 } from '../../../util/round.js';

/** The categories of a direct jailbreak: what the user's own turn is scanned for. */
const JAILBREAK_CATEGORIES: ReadonlySet<InjectionCategory> = new Set([
  'instruction_override',
  'roleplay_jailbreak',
  'prompt_extraction',
]);

/**
 * Confidence of a jailbreak attempt in the user's turn, from its strong matches: 0.80 for one,
 * each further category adds 0.06 and each further pattern 0.02, up to 0.96. An instruction
 * hidden in an encoded blob counts as an extra category (the encoding is itself a trick).
 */
export function injectionConfidence(matches: readonly InjectionMatch[]): number {
  const patterns = new Set(matches.map((m) => m.pattern));
  const categories = new Set<string>(matches.map((m) => m.category));
  if (matches.some((m) => m.encoding)) categories.add('delimiter_encoding');
  const extraCategories = Math.max(0, categories.size - 1);
  const c = 0.8 + 0.06 * extraCategories + 0.02 * Math.max(0, patterns.size - categories.size);
  return Math.min(0.96, round3(c));
}

/** Data is scored by passage; the user's turn is looked at for strong jailbreak patterns only. */
const DATA_WANTS: ScanWants = { matches: () => false, passage: true, run: () => true, leadFirst: true };
const isJailbreak = (p: InjectionPattern) => p.weak !== true && JAILBREAK_CATEGORIES.has(p.category);
const USER_TURN_WANTS: ScanWants = {
  matches: isJailbreak,
  passage: false,
  run: isJailbreak,
  leadFirst: false,
};

type Channel = 'data' | 'user_turn';

interface Source {
  step?: number;
  where: string;
  kind: 'trace_input' | 'message' | 'tool_result' | 'retrieval' | 'llm_input';
  extra?: Record<string, unknown>;
}

/**
 * Which field of the trace a scanned text came from. Sources are described only when a field
 * passes the prefilter and holds a match: the walk itself allocates nothing per field.
 */
const FIELD_INPUT = 0;
const FIELD_TOOL_RESULT = 1;
const FIELD_TOOL_ERROR = 2;
const FIELD_DOCUMENT = 3;
const FIELD_MESSAGE = 4;
const FIELD_LLM_PROMPT = 5;
const FIELD_LLM_MESSAGE = 6;

function describeSource(trace: Trace, field: number, stepIndex: number, sub: number): Source {
  if (field === FIELD_INPUT) return { where: 'the trace input', kind: 'trace_input' };
  const s = trace.steps[stepIndex]!;
  const step = stepIndex + 1;
  if (s.type === 'tool') {
    const which = field === FIELD_TOOL_RESULT ? 'result' : 'error';
    return { step, where: `the ${which} of tool "${s.name}"`, kind: 'tool_result', extra: { tool: s.name } };
  }
  if (s.type === 'retrieval') {
    const doc = s.results[sub]!;
    return {
      step,
      where: `retrieved document ${sub + 1}${doc.id ? ` ("${doc.id}")` : ''}`,
      kind: 'retrieval',
      extra: { document: sub + 1, documentId: doc.id },
    };
  }
  if (s.type === 'message')
    return { step, where: `a message from "${s.from}"`, kind: 'message', extra: { from: s.from } };
  if (s.type === 'llm' && field === FIELD_LLM_MESSAGE && typeof s.input !== 'string' && s.input) {
    const msg = s.input[sub]!;
    return {
      step,
      where: `an LLM input message (role ${msg.role})`,
      kind: 'llm_input',
      extra: { message: sub + 1, role: msg.role },
    };
  }
  return { step, where: 'the LLM prompt', kind: 'llm_input' };
}

/** Per-config data, derived once per config object rather than once per trace. */
interface Prepared {
  opts: ScanOptions;
  trustedSenders: ReadonlySet<string>;
  userSenders: ReadonlySet<string>;
  untrustedRoles: ReadonlySet<string>;
  userTurnSeverity: Severity | undefined;
  readRequests: boolean;
}
const prepared = new WeakMap<Config, Prepared>();
function prepare(cfg: Config): Prepared {
  let p = prepared.get(cfg);
  if (p === undefined) {
    p = {
      opts: {
        maxChars: cfg.max_field_chars,
        decodeEncoded: cfg.decode_encoded,
        disabled: new Set(cfg.disabled_patterns),
      },
      trustedSenders: new Set(cfg.trusted_senders.map((s) => s.toLowerCase())),
      userSenders: new Set(cfg.user_senders.map((s) => s.toLowerCase())),
      untrustedRoles: new Set(cfg.untrusted_roles.map((r) => r.toLowerCase())),
      userTurnSeverity: cfg.user_turn_severity === 'off' ? undefined : cfg.user_turn_severity,
      readRequests: cfg.reader_requests,
    };
    prepared.set(cfg, p);
  }
  return p;
}

/** What one step's fields of one channel found, gathered into one signal. */
interface Pending {
  key: string;
  channel: Channel;
  sources: Source[];
  matches: (InjectionMatch & Record<string, unknown>)[];
  /** Data channel: the best passage's score, cues and excerpt over the step's fields. */
  confidence: number;
  critical: boolean;
  cues: CueSet;
  excerpt?: string;
  /** Data channel: what the passages asked the model to send things to or open. */
  targets: Set<string>;
  /** Data channel: the strongest request to the reader among the step's fields. */
  request?: FoundRequest;
  /** Where the agent's actions after the injected text start (0-based step). */
  actsFrom: number;
  truncated: boolean;
}

/** A request to the reader (readerRequests.ts) with its evidence. */
interface FoundRequest extends ReaderRequest {
  excerpt: string;
  targets: string[];
  source: Source;
}

/**
 * What a request in a trace's data is read against (strongestRequest). The user's task is built
 * only when a sentence reads as a request and needs it (most data fields hold none: building it for
 * every trace with data was 4 % of a run of small traces). One per trace, its getters on the
 * class: an object literal with getters made for every field cost more than the task it saved.
 */
class TaskRequestContext implements RequestContext {
  /** Whether the field being read is a message from another agent; set before each read. */
  fromAgent = false;
  private task: UserTask | undefined;

  constructor(
    private readonly trace: Trace,
    private readonly userSenders: ReadonlySet<string>,
    readonly noOverrides: boolean,
  ) {}

  get taskStems(): ReadonlySet<string> {
    return this.userTask().stems;
  }

  get taskVerbs(): ReadonlySet<string> {
    return this.userTask().verbs;
  }

  private userTask(): UserTask {
    return (this.task ??= userTask(this.trace, this.userSenders));
  }
}

/** The state of one trace's scan, created when its first field passes the prefilter. */
class TraceScan {
  readonly signals: SignalDraft[] = [];
  /** Texts scanned so far, by length then content: no string is hashed (see ReplayedHistory). */
  private readonly scanned = new ReplayedHistory();
  /** pattern + excerpt of everything reported so far: replayed chat history is not reported again. */
  private readonly reported = new Set<string>();
  private current: Pending | undefined;
  /** What a request in data is read against, made for the trace's first data field. */
  private requestContext: TaskRequestContext | undefined;

  constructor(
    private readonly trace: Trace,
    private readonly prep: Prepared,
  ) {}

  add(f: Field, field: number, stepIndex: number, sub: number, channel: Channel): void {
    const llmInput = field === FIELD_LLM_PROMPT || field === FIELD_LLM_MESSAGE;
    // A text forgotten by a full length bucket is scanned again; for an LLM input message its
    // matches are then dropped as already reported, so the findings are the same.
    if (this.scanned.seen(f.text) && llmInput) return;
    if (channel === 'user_turn' && this.prep.userTurnSeverity === undefined) return;
    const scan = f.passes
      ? scanCapped(f.capped, this.prep.opts, channel === 'data' ? DATA_WANTS : USER_TURN_WANTS)
      : undefined;
    const passage = scan?.passage;
    const found = channel === 'data' ? (passage?.matches ?? []) : (scan?.matches ?? []);
    let request: ReaderRequest | undefined;
    if (channel === 'data' && this.prep.readRequests) {
      const context = (this.requestContext ??= new TaskRequestContext(
        this.trace,
        this.prep.userSenders,
        this.prep.opts.disabled?.has('io.ignore_previous') === true,
      ));
      context.fromAgent = field === FIELD_MESSAGE;
      request = strongestRequest(f.capped, context);
    }
    const fresh = found.filter((m) => {
      const key = `${m.pattern}\u0000${m.excerpt}`;
      if (llmInput && this.reported.has(key)) return false;
      this.reported.add(key);
      return true;
    });
    // One signal per step and channel (a retrieval's documents or an LLM call's messages are grouped).
    const key = `${field === FIELD_INPUT ? 'input' : `step:${stepIndex + 1}`}:${channel}`;
    if (this.current?.key !== key) {
      this.flush();
      this.current = {
        key,
        channel,
        sources: [],
        matches: [],
        confidence: 0,
        critical: false,
        cues: {},
        targets: new Set(),
        // Text in an LLM call's input is acted on by that call's own output; a tool result,
        // document or message by the steps after it.
        actsFrom: llmInput ? stepIndex : stepIndex + 1,
        truncated: false,
      };
    }
    if (fresh.length === 0 && request === undefined) return;
    const cur = this.current;
    const src = describeSource(this.trace, field, stepIndex, sub);
    cur.sources.push(src);
    if (request && request.confidence > (cur.request?.confidence ?? 0))
      cur.request = { ...request, ...sentenceEvidence(f.capped, request.start, request.end), source: src };
    for (const m of fresh) cur.matches.push({ ...m, ...(src.extra ?? {}) });
    cur.truncated ||= f.truncated;
    if (passage) {
      if (passage.confidence > cur.confidence) {
        cur.confidence = passage.confidence;
        cur.excerpt = passage.excerpt;
      }
      cur.critical ||= passage.critical;
      for (const t of passage.targets) cur.targets.add(t);
      for (const c of CUES) {
        const s = passage.cues[c];
        if (s === 'strong' || (s === 'weak' && cur.cues[c] === undefined)) cur.cues[c] = s;
      }
    }
  }

  flush(): void {
    const cur = this.current;
    if (!cur || (cur.matches.length === 0 && cur.request === undefined)) return;
    if (cur.channel === 'user_turn') {
      this.signals.push(userTurnSignal(cur, this.prep.userTurnSeverity!));
      return;
    }
    const targets = [...new Set([...cur.targets, ...(cur.request?.targets ?? [])])];
    this.signals.push(dataSignal(cur, targets, followedFrom(this.trace, cur.actsFrom, targets)));
  }
}

/**
 * The text LLM input messages of one trace walked so far. Chat history is replayed on every call,
 * so without this the prefilter would walk the whole conversation again at each call (quadratic in
 * its length). A message seen before changes nothing when seen again: if the prefilter rejected it,
 * it rejects it again; if it passed, its scan is already done (`TraceScan.scanned`). Texts are kept
 * by length, so a new text costs one Map lookup by a number and is compared with earlier texts only
 * when the lengths are equal; a bucket stops growing at MAX_PER_LENGTH texts to keep that bounded.
 */
class ReplayedHistory {
  private static readonly MAX_PER_LENGTH = 64;
  private readonly byLength = new Map<number, string[]>();

  /** True when this text was seen before in this trace; remembers it otherwise. */
  seen(text: string): boolean {
    const bucket = this.byLength.get(text.length);
    if (bucket === undefined) {
      this.byLength.set(text.length, [text]);
      return false;
    }
    if (bucket.includes(text)) return true;
    if (bucket.length < ReplayedHistory.MAX_PER_LENGTH) bucket.push(text);
    return false;
  }
}

/** The message-step sender is the agent itself or a configured trusted sender. */
function isTrustedSender(from: string, agentId: string, trusted: ReadonlySet<string>): boolean {
  if (trusted.has(from)) return true;
  const lower = from.toLowerCase();
  return trusted.has(lower) || lower === agentId.toLowerCase();
}

/** The LLM input message role is one that is scanned. */
function isUntrustedRole(role: string, untrusted: ReadonlySet<string>): boolean {
  // The set holds lowercase roles: a role found as it is needs no lowercasing.
  return untrusted.has(role) || untrusted.has(role.toLowerCase());
}

const isUserRole = (role: string) => role === 'user' || role.toLowerCase() === 'user';

const PATTERN_IDS = INJECTION_PATTERNS.map((p) => p.id) as [string, ...string[]];

const config = z.object({
  max_field_chars: z
    .number()
    .int()
    .positive()
    .default(100_000)
    .describe('Longest text scanned per field; longer text is cut to its head (3/4) and tail (1/4)'),
  decode_encoded: z.boolean().default(true).describe('Decode base64 / hex blobs and scan what they hide'),
  scan_string_prompts: z
    .boolean()
    .default(false)
    .describe(
      'Scan LLM prompts given as one string, as the user’s turn (they usually include the system prompt)',
    ),
  untrusted_roles: z
    .array(z.string())
    .default(['user', 'tool', 'function', 'ipython'])
    .describe('Roles of LLM input messages that are scanned: user as the user’s turn, the others as data'),
  trusted_senders: z
    .array(z.string())
    .default(['system', 'developer', 'assistant'])
    .describe('Message-step senders that are not scanned (the trace’s own agentId is always trusted)'),
  user_senders: z
    .array(z.string())
    .default(['user', 'human'])
    .describe('Message-step senders whose messages are the user’s turn; other senders’ messages are data'),
  user_turn_severity: z
    .enum(['off', 'low', 'medium', 'high'])
    .default('medium')
    .describe(
      'Severity of a jailbreak attempt in the user’s own turn (never critical: it is not an injection into data); off drops it',
    ),
  reader_requests: z
    .boolean()
    .default(true)
    .describe(
      'Also read each sentence of untrusted data for a request to whoever reads it (about its answer or code, a task, a tool call, to stop); most are left for review',
    ),
  disabled_patterns: z
    .array(
      // A typo would silently disable nothing: ids are checked, and editors can offer them.
      z.enum(PATTERN_IDS, {
        error: (issue) => {
          const hint = typeof issue.input === 'string' ? didYouMean(issue.input, PATTERN_IDS) : '';
          return `unknown pattern id ${JSON.stringify(issue.input)}${hint} (\`tracejury schema config\` lists the ids)`;
        },
      }),
    )
    .default([])
    .describe('Pattern ids to skip, e.g. rj.named_mode'),
});
type Config = z.infer<typeof config>;

export const promptInjectionSignal = defineDetector({
  meta: {
    id: 'PROMPT_INJECTION_SIGNAL',
    configKey: 'prompt_injection_signal',
    tier: 1,
    kind: 'structural',
    severity: 'critical',
    failureMode: 'injection',
    description:
      'Data the agent read (tool results, documents, pages, other agents’ messages) holds instructions addressed to the model, or requests to whoever reads it; the user’s own turn, a jailbreak attempt',
    fix: 'treat untrusted text as data: delimit it, never follow its instructions, confirm risky tool calls',
    rule: "Data the agent read (tool results, documents, pages, other agents' messages) holds a passage that addresses the model, overrides its task and asks it to act, or a sentence that asks something of whoever reads it — about its answer or code, to stop, a tool action, an unrelated task — that departs from the document and the user's task (left for review unless a model-like name, an override or fake system / TODO framing settles it; see [requests to the reader](#requests-to-the-reader)); the severity follows what the agent did next (see [prompt injection](#prompt-injection-what-is-read-and-how-severe)). The user's own turn is scanned only for direct jailbreak attempts, reported at `user_turn_severity`; system prompts and the agent's own output are never scanned.",
    config,
  },
  detect(trace, ctx) {
    const cfg = ctx.config;
    const max = cfg.max_field_chars;
    const p = prepare(cfg);
    let scan: TraceScan | undefined;
    let f: Field | undefined;
    let history: ReplayedHistory | undefined;
    // Data is read for requests to its reader whatever the prefilter says of it; the user's turn
    // only for jailbreaks, which the prefilter selects.
    const dataField = p.readRequests
      ? (v: unknown) => fieldOf(v, false, max)
      : (v: unknown) => passingField(v, false, max);
    // The untrusted fields, in trace order, with plain loops: a field the prefilter rejects costs
    // one walk over its text (and, for data, the reading of its sentences) and nothing else.
    if (trace.input !== undefined && (f = passingField(trace.input, true, max)) !== undefined)
      (scan ??= new TraceScan(trace, p)).add(f, FIELD_INPUT, -1, 0, 'user_turn');
    const steps = trace.steps;
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i]!;
      switch (s.type) {
        case 'tool':
          if (s.result !== undefined && (f = dataField(s.result)) !== undefined)
            (scan ??= new TraceScan(trace, p)).add(f, FIELD_TOOL_RESULT, i, 0, 'data');
          if (s.error && (f = dataField(s.error)) !== undefined)
            (scan ??= new TraceScan(trace, p)).add(f, FIELD_TOOL_ERROR, i, 0, 'data');
          break;
        case 'retrieval':
          for (let d = 0; d < s.results.length; d++) {
            const content = s.results[d]!.content;
            if (content && (f = dataField(content)) !== undefined)
              (scan ??= new TraceScan(trace, p)).add(f, FIELD_DOCUMENT, i, d, 'data');
          }
          break;
        case 'message':
          if (!isTrustedSender(s.from, trace.agentId, p.trustedSenders)) {
            const channel = p.userSenders.has(s.from.toLowerCase()) ? 'user_turn' : 'data';
            f = channel === 'data' ? dataField(s.content) : passingField(s.content, false, max);
            if (f !== undefined) (scan ??= new TraceScan(trace, p)).add(f, FIELD_MESSAGE, i, 0, channel);
          }
          break;
        case 'llm':
          if (typeof s.input === 'string') {
            if (cfg.scan_string_prompts && (f = passingField(s.input, false, max)) !== undefined)
              (scan ??= new TraceScan(trace, p)).add(f, FIELD_LLM_PROMPT, i, 0, 'user_turn');
          } else if (s.input) {
            for (let m = 0; m < s.input.length; m++) {
              const msg = s.input[m]!;
              if (msg.content === undefined || !isUntrustedRole(msg.role, p.untrustedRoles)) continue;
              if (typeof msg.content === 'string' && (history ??= new ReplayedHistory()).seen(msg.content))
                continue;
              const channel = isUserRole(msg.role) ? 'user_turn' : 'data';
              f = channel === 'data' ? dataField(msg.content) : passingField(msg.content, false, max);
              if (f !== undefined)
                (scan ??= new TraceScan(trace, p)).add(f, FIELD_LLM_MESSAGE, i, m, channel);
            }
          }
          break;
        default:
          break;
      }
    }
    if (scan === undefined) return [];
    scan.flush();
    return scan.signals;
  },
});

/** "Step 4: the result of tool "x"" (and "and 2 more" past three sources). */
function subjectOf(srcs: readonly Source[]): { subject: string; plural: boolean } {
  const src = srcs[0]!;
  const wheres = [...new Set(srcs.map((s) => s.where))];
  const said =
    wheres.length <= 3 ? wheres.join(', ') : `${wheres.slice(0, 3).join(', ')} and ${wheres.length - 3} more`;
  const where = src.step === undefined ? said : `Step ${src.step}: ${said}`;
  return { subject: where.charAt(0).toUpperCase() + where.slice(1), plural: wheres.length > 1 };
}

/** The evidence both channels share: where, which patterns, each match with its excerpt. */
function baseEvidence(
  channel: Channel,
  srcs: readonly Source[],
  matches: readonly (InjectionMatch & Record<string, unknown>)[],
): Record<string, unknown> {
  return {
    source: srcs[0]!.kind,
    channel,
    categories: [...new Set(matches.map((m) => m.category))],
    patterns: [...new Set(matches.map((m) => m.pattern))],
    matches: matches.map((m) => {
      const { pattern, category, description, weak, cues, excerpt, encoding, ...where } = m;
      return {
        pattern,
        category,
        description,
        weak,
        cues: CUES.filter((c) => cues[c] !== undefined),
        excerpt,
        ...(encoding ? { encoding } : {}),
        ...where,
      };
    }),
  };
}

/**
 * The severity of a passage of data addressed to the model, from what it holds and what the agent
 * did next: critical when an override addressed to the model asked for an action and a later step
 * carries its target (the agent acted on it); high when the agent acted on a lesser one, or when
 * the passage names no target to check (what it asked cannot be read from the calls); medium when
 * it names targets and nothing the agent did afterwards carries one (attacked, not compromised:
 * worth knowing, not a failed run).
 */
function dataSeverity(
  critical: boolean,
  targets: readonly string[],
  followed: Followed | undefined,
): Severity {
  if (followed) return critical ? 'critical' : 'high';
  return targets.length > 0 ? 'medium' : 'high';
}

/**
 * A signal of data: a passage addressed to the model (the pattern catalogue), a request to whoever
 * reads it (readerRequests.ts), or both in one step; the stronger reading words the message, and
 * the evidence carries both.
 */
function dataSignal(cur: Pending, targets: readonly string[], followed: Followed | undefined): SignalDraft {
  const request = cur.request;
  const byRequest = request !== undefined && request.confidence > cur.confidence;
  const confidence = byRequest ? request.confidence : cur.confidence;
  const critical =
    cur.critical ||
    (request?.kind === 'tool' &&
      (request.boosts.includes('vocative') || request.boosts.includes('override')));
  const message = byRequest
    ? requestMessage(cur, request, targets, followed)
    : passageMessage(cur, targets, followed);
  // The cues of the reading that scored the signal; the other reading's are in its own evidence.
  const cues: CueSet = byRequest ? request.cues : cur.cues;
  const evidence: Record<string, unknown> = {
    ...baseEvidence('data', cur.sources, cur.matches),
    cues,
    ...(byRequest ? { excerpt: request.excerpt } : cur.excerpt !== undefined ? { excerpt: cur.excerpt } : {}),
    ...(request ? { request: requestEvidence(request) } : {}),
    ...(targets.length > 0 ? { targets, followed: followed ?? false } : {}),
  };
  if (cur.truncated) evidence.truncated = true;
  const step = (byRequest ? request.source : cur.sources[0]!).step;
  return {
    steps: step === undefined ? [] : [step],
    confidence,
    severity: dataSeverity(critical, targets, followed),
    message,
    evidence,
  };
}

/** What the agent did after the text, for the end of a message. */
function actedOn(targets: readonly string[], followed: Followed | undefined): string {
  return followed
    ? `the agent acted on it: step ${followed.step} (${followed.where}) carries what it asked for.`
    : targets.length > 0
      ? `no later tool call carries what it asked for (${targets.length} ${targets.length === 1 ? 'address' : 'addresses'} checked): attacked, not compromised.`
      : 'it names no address to check the agent’s later calls against: check whether the agent acted on it.';
}

/**
 * A passage of data addressed to the model. The message names the cues found (with the patterns
 * behind each), whether the agent acted on it and, in the gray zone, what was missing.
 */
function passageMessage(cur: Pending, targets: readonly string[], followed: Followed | undefined): string {
  const { subject, plural } = subjectOf(cur.sources);
  const idsOf = (c: Cue) => [
    ...new Set(cur.matches.filter((m) => m.cues[c] !== undefined).map((m) => m.pattern)),
  ];
  const present = CUES.filter((c) => cur.cues[c] !== undefined);
  const parts = present.map(
    (c) => `${CUE_LABELS[c]}${cur.cues[c] === 'weak' ? ' (weakly)' : ''} (${idsOf(c).join(', ')})`,
  );
  const encoded = cur.matches.some((m) => m.encoding) ? ' Some of it was hidden in base64 / hex.' : '';
  const finding = cur.confidence > 0.65;
  const missing = (['addressee', 'override', 'action'] as const).filter(
    (c) =>
      cur.cues[c] !== 'strong' &&
      !(c === 'addressee' && cur.cues.fake_turn === 'strong') &&
      !(c === 'override' && cur.cues.concealment === 'strong'),
  );
  const kind = cur.critical
    ? 'An override addressed to the model that asks for an action'
    : 'Untrusted data, not instructions';
  const acted = actedOn(targets, followed);
  const verdict = finding
    ? `${kind}; ${acted}`
    : `Not clearly an injection (${missing.map((c) => CUE_LABELS[c]).join(', ') || 'weak cues only'}: not found or weak), so this needs a closer look; ${acted}`;
  return (
    `${subject} ${plural ? 'hold' : 'holds'} text that looks like instructions to the model — ${parts.join('; ')}.${encoded} ` +
    verdict
  );
}

/** How each boost of a request is worded in a message. */
const BOOST_LABELS: Record<RequestBoost, string> = {
  departure: 'far from the document around it and the user’s task',
  system: 'posing as a system message',
  todo: 'framed as a TODO note',
  alarm: 'with alarm ("IMPORTANT!!!", an instruction tag)',
  vocative: 'addressed to a model by name or role',
  override: 'overriding earlier instructions (however spelt)',
  urgency: 'urgent',
};

/**
 * A request to whoever reads the text: what it asks, how far it departs, what framing or address
 * came with it, and — in the gray zone — why the rules leave it to a closer look.
 */
function requestMessage(
  cur: Pending,
  request: FoundRequest,
  targets: readonly string[],
  followed: Followed | undefined,
): string {
  const { subject } = subjectOf([request.source]);
  const d = request.departure;
  const parts = [
    REQUEST_LABELS[request.kind],
    ...(d?.known && !request.boosts.includes('departure') && d.share >= 0.75
      ? ['unrelated to the document around it and to the user’s task']
      : []),
    ...request.boosts.map((b) => BOOST_LABELS[b]),
  ];
  if (cur.matches.length > 0)
    parts.push(
      `beside patterns of the catalogue (${[...new Set(cur.matches.map((m) => m.pattern))].join(', ')})`,
    );
  const acted = actedOn(targets, followed);
  const verdict =
    request.confidence > 0.65
      ? `A request to the model inside data; ${acted}`
      : `Not clearly an injection: a document may really ask this of its reader, and nothing (a model-like name, an override, system or TODO framing) settles it, so this needs a closer look; ${acted}`;
  return `${subject} holds a request to whoever reads it — ${parts.join('; ')}. ${verdict}`;
}

/** The request's evidence: what it asks, the boosts, and its departure in numbers. */
function requestEvidence(r: FoundRequest): Record<string, unknown> {
  return {
    kind: r.kind,
    confidence: r.confidence,
    excerpt: r.excerpt,
    cues: r.cues,
    boosts: r.boosts,
    ...(r.departure
      ? {
          departure: { words: r.departure.words, departing: r.departure.departing, known: r.departure.known },
        }
      : {}),
    ...(r.source.step !== undefined ? { step: r.source.step } : {}),
  };
}

/** A jailbreak attempt in the user's own turn, at the configured severity. */
function userTurnSignal(cur: Pending, severity: Severity): SignalDraft {
  const { subject, plural } = subjectOf(cur.sources);
  const byCategory = new Map<InjectionCategory, Set<string>>();
  for (const m of cur.matches) {
    const set = byCategory.get(m.category) ?? new Set<string>();
    set.add(m.pattern);
    byCategory.set(m.category, set);
  }
  const parts = [...byCategory].map(([cat, ids]) => `${CATEGORY_LABELS[cat]} (${[...ids].join(', ')})`);
  const encoded = cur.matches.some((m) => m.encoding) ? ' Some of it was hidden in base64 / hex.' : '';
  const message =
    `${subject} ${plural ? 'look' : 'looks'} like a jailbreak attempt in the user’s own turn — ${parts.join('; ')}.${encoded} ` +
    'Written by the user or the operator, not injected through data: check that the agent kept to its instructions.';
  const evidence = baseEvidence('user_turn', cur.sources, cur.matches);
  if (cur.truncated) evidence.truncated = true;
  const step = cur.sources[0]!.step;
  return {
    steps: step === undefined ? [] : [step],
    confidence: injectionConfidence(cur.matches),
    severity,
    message,
    evidence,
  };
}

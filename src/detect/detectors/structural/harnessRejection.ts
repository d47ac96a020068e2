/**
 * HARNESS_REJECTION: the harness (or the user side of the loop) keeps rejecting the agent's turns —
 * format errors, "invalid action", "Please always provide EXACTLY ONE action", the same error
 * message fed back turn after turn for the same reason — so the agent spends calls without acting.
 *
 * Read from the transcript's shape, not from one harness's wording: a turn is rejected when the
 * agent answered without a tool call (an LLM output of text, or nothing) and the very next step is a
 * message from someone other than the assistant that another such turn of the run also got —
 * - word for word (numbers aside), and long enough (≥ 40 characters) not to be a "yes" or
 *   "thanks"; or
 * - an error (it opens with "Error", "Invalid", "Traceback", "Could not…", or names an
 *   invalid/malformed action, format or command, a parse error, "no valid action") for the same
 *   reason: the same opening words once numbers and quoted names are masked.
 *
 * A harness's fixed round prompt is not a rejection, however often it recurs: a text the harness
 * sends every round ("Based on your analysis, answer the questions below…") is recognised by how it
 * recurs in the run, not by its words — it also arrives where it answers no tool-less turn (after a
 * tool call, as the task's opening message), or it alternates, at a fixed period, with replies that
 * mostly differ from round to round (the results of what the agent asked for). A rejection answers
 * the turn instead of its work.
 *
 * It fires at `min_rejections` rejected turns. A streak is rejections with no tool call between
 * them (the agent never got an action through); a streak of `high_streak` or more, or a run that
 * ends rejected (no tool call after its last rejection and no exit), is high; otherwise medium.
 * Identical replies are certain (0.85); error replies that differ beyond their masked names are
 * read from their opening words (0.75).
 *
 * Waste: the rejected turns — the LLM calls whose output the harness refused (each is a tool-less
 * answer, so no batch is split). Not the turns the harness accepted, and not the replies themselves
 * (they are not LLM calls of the agent). The runner prices them.
 */
import { z } from 'zod';
import { ERROR_QUOTE, redactAndCut } from '../../../redact/safeText.js';
import type { Step } from '../../../trace/schema.js';
import { defineDetector } from '../../detector.js';
import { hasExit, isToolUse, llmOutputKind, plural, stepNo, stepSpan } from './shared.js';
import { wastePriority } from '../../wastePriority.js';

/** An error's opening words, or a phrase that names what was wrong with the turn. */
const ERROR_OPENING =
  /^\W{0,3}(?:error|invalid|exception|traceback|failed|failure|could not|cannot|can't|unable to|unrecognized|unknown (?:action|command|tool))\b/i;
const ERROR_PHRASE =
  /\b(?:(?:invalid|malformed|wrong|incorrect|unrecognized|unknown) (?:action|format|response|input|command|tool call|function call|syntax|json)|format(?:ting)? error|parse error|failed to parse|could not (?:parse|be parsed)|no (?:valid )?(?:action|tool call|command) (?:was )?(?:found|provided|given))\b/i;
/** Repeated replies shorter than this ("yes", "thanks") are conversation, not a template. */
const MIN_TEMPLATE_CHARS = 40;
/** Characters of a reply compared and shown. */
const REPLY_CHARS = 300;

function replyText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((p) => (typeof p === 'string' ? p : typeof p?.text === 'string' ? (p.text as string) : ''))
      .join(' ');
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

/** Quoted names and code spans: what an error is about, not why it was sent. */
const QUOTED = /"[^"\n]{0,200}"|'[^'\n]{0,200}'|`[^`\n]{0,200}`|“[^”\n]{0,200}”/g;

/** The reply as compared: whitespace collapsed, numbers masked, case folded, bounded. */
const shapeOf = (text: string): string =>
  text.replace(/\s+/g, ' ').trim().slice(0, REPLY_CHARS).replace(/\d+/g, '#').toLowerCase();

/**
 * An error's reason: the first words of its first sentence, quoted names masked ("invalid action
 * "…""): what was wrong, not with what.
 */
const REASON_WORDS = 3;
const reasonOf = (shape: string): string =>
  shape
    .replace(QUOTED, '"…"')
    .split(/[.\n]/, 1)[0]!
    .split(/[^\p{L}#"…]+/u)
    .filter(Boolean)
    .slice(0, REASON_WORDS)
    .join(' ');

export function isErrorLike(text: string): boolean {
  const head = text.trim().slice(0, REPLY_CHARS);
  return ERROR_OPENING.test(head) || ERROR_PHRASE.test(head);
}

interface Reply {
  /** Index of the tool-less LLM turn and of the reply in trace.steps. */
  turn: number;
  reply: number;
  text: string;
  shape: string;
}

/**
 * Shapes of the run's fixed round prompts: replies the harness sends whatever the turn was. A shape
 * recurs as a message that answers no tool-less turn, or alternates at a fixed period with replies
 * that differ every time.
 */
function roundPrompts(steps: readonly Step[], replies: readonly Reply[]): Set<string> {
  const prompts = new Set<string>();
  const asReply = new Set(replies.map((r) => r.reply));
  const byShape = new Map<string, number[]>();
  replies.forEach((r, k) => {
    const list = byShape.get(r.shape);
    if (list) list.push(k);
    else byShape.set(r.shape, [k]);
  });
  const recurring = [...byShape].filter(([, ks]) => ks.length >= 2).map(([shape]) => shape);
  if (recurring.length === 0) return prompts;
  // Sent where it answers no tool-less turn: after a tool call, or as the run's opening message.
  steps.forEach((s, i) => {
    if (s.type !== 'message' || s.from === 'assistant' || asReply.has(i)) return;
    const shape = shapeOf(replyText(s.content));
    if (byShape.has(shape)) prompts.add(shape);
  });
  for (const shape of recurring) {
    if (prompts.has(shape)) continue;
    const at = byShape.get(shape)!;
    const gaps = at.slice(1).map((k, j) => k - at[j]!);
    if (gaps.some((g) => g !== gaps[0]) || gaps[0]! < 2) continue;
    // Between its occurrences, replies that mostly differ: the round's results.
    const between = replies.filter((r, k) => k > at[0]! && k < at[at.length - 1]! && r.shape !== shape);
    const distinct = new Set(between.map((r) => r.shape)).size;
    if (distinct >= Math.min(2, between.length) && 2 * distinct >= between.length) prompts.add(shape);
  }
  return prompts;
}

/** Each tool-less assistant turn answered at once by a message from someone else. */
function repliesToToolLessTurns(steps: readonly Step[]): Reply[] {
  const out: Reply[] = [];
  for (let i = 0; i + 1 < steps.length; i++) {
    const s = steps[i]!;
    if (s.type !== 'llm') continue;
    const kind = llmOutputKind(s);
    if (kind !== 'text' && kind !== 'empty') continue;
    const next = steps[i + 1]!;
    if (next.type !== 'message' || next.from === 'assistant') continue;
    const text = replyText(next.content);
    out.push({ turn: i, reply: i + 1, text, shape: shapeOf(text) });
  }
  return out;
}

export const harnessRejection = defineDetector({
  meta: {
    id: 'HARNESS_REJECTION',
    configKey: 'harness_rejection',
    tier: 1,
    kind: 'structural',
    severity: 'medium',
    failureMode: 'rejection',
    description: 'Turns without a tool call answered by the same reply or the same error, ≥3 times',
    priority: wastePriority('HARNESS_REJECTION'),
    wasteRule: 'the rejected turns: the LLM calls whose output the harness refused',
    fix: "show the agent the harness's expected format in the prompt, and stop the run after repeated rejections",
    rule: 'The agent answers without a tool call and the harness (or the user side of the loop) replies with the same message it gave another such turn, or the same error for the same reason ("Invalid action: …", a parse error), `min_rejections` times in a run: the agent spends calls without acting. A fixed prompt the harness sends every round is not a rejection: it is recognised by how it recurs (it also comes where no turn was refused, or alternates with replies that differ every round). High on a streak of `high_streak` rejections with no tool call between them, or when the run ends rejected.',
    config: z.object({
      min_rejections: z.number().int().min(2).default(3).describe('Rejected turns in a run that fire'),
      high_streak: z
        .number()
        .int()
        .min(2)
        .default(5)
        .describe('Rejections in a row (no tool call between them) that make the signal high'),
    }),
  },
  detect(trace, ctx) {
    const { min_rejections, high_streak } = ctx.config;
    const replies = repliesToToolLessTurns(trace.steps);
    if (replies.length < min_rejections) return [];
    const prompts = roundPrompts(trace.steps, replies);
    const candidates = replies.filter((r) => !prompts.has(r.shape));
    const seen = new Map<string, number>();
    const reasons = new Map<string, number>();
    for (const r of candidates) {
      seen.set(r.shape, (seen.get(r.shape) ?? 0) + 1);
      if (isErrorLike(r.text)) reasons.set(reasonOf(r.shape), (reasons.get(reasonOf(r.shape)) ?? 0) + 1);
    }
    // The same reply again (a template), or the same error for the same reason.
    const rejected = candidates.filter(
      (r) =>
        ((seen.get(r.shape) ?? 0) > 1 && r.shape.length >= MIN_TEMPLATE_CHARS) ||
        (isErrorLike(r.text) && (reasons.get(reasonOf(r.shape)) ?? 0) > 1),
    );
    if (rejected.length < min_rejections) return [];

    // Streaks: rejections with no tool call between them.
    let streak = 1;
    let longest = 1;
    for (let k = 1; k < rejected.length; k++) {
      const between = trace.steps.slice(rejected[k - 1]!.reply + 1, rejected[k]!.turn);
      streak = between.some(isToolUse) ? 1 : streak + 1;
      if (streak > longest) longest = streak;
    }
    const last = rejected[rejected.length - 1]!;
    const endedRejected =
      !hasExit(trace) && !trace.steps.slice(last.reply + 1).some((s) => s.type === 'tool');
    const identical = rejected.every((r) => r.shape === rejected[0]!.shape);
    const replyShown = redactAndCut(rejected[0]!.text.replace(/\s+/g, ' ').trim(), ERROR_QUOTE);
    const steps = rejected.map((r) => stepNo(r.reply));
    return [
      {
        severity: longest >= high_streak || endedRejected ? 'high' : 'medium',
        confidence: identical ? 0.85 : 0.75,
        steps,
        message:
          `${plural(rejected.length, 'turn')} without a tool call ${identical ? 'got the same reply' : 'got the same error in other words'} ` +
          `(${steps.length <= 6 ? `steps ${steps.join(', ')}` : stepSpan(steps)}): “${replyShown}”` +
          (longest > 1 ? `; ${longest} in a row` : '') +
          (endedRejected ? '; the run ended rejected' : ''),
        evidence: {
          rejections: rejected.length,
          longestStreak: longest,
          identicalReplies: identical,
          endedRejected,
          minRejections: min_rejections,
          highStreak: high_streak,
          turns: rejected.map((r) => stepNo(r.turn)),
          wastedSteps: rejected.map((r) => stepNo(r.turn)),
        },
      },
    ];
  },
});

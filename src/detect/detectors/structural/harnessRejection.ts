/**
 * HARNESS_REJECTION: the harness (or the user side of the loop) keeps rejecting the agent's turns —
 * format errors, "invalid action", "Please always provide EXACTLY ONE action", the same error
 * message fed back turn after turn — so the agent spends calls without acting.
 *
 * Read from the transcript's shape, not from one harness's wording: a turn is rejected when the
 * agent answered without a tool call (an LLM output of text, or nothing) and the very next step is a
 * message from someone other than the assistant that either
 * - reads as an error (it opens with "Error", "Invalid", "Traceback", "Could not…", or names an
 *   invalid/malformed action, format or command, a parse error, "no valid action"), or
 * - repeats, word for word (numbers aside), the reply another tool-less turn of the run got, and is
 *   long enough (≥ 40 characters) not to be a "yes" or "thanks".
 *
 * It fires at `min_rejections` rejected turns. A streak is rejections with no tool call between
 * them (the agent never got an action through); a streak of `high_streak` or more, or a run that
 * ends rejected (no tool call after its last rejection and no exit), is high; otherwise medium.
 * Identical replies are certain (0.85); error-like replies that differ are read from wording (0.75).
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

/** The reply as compared: whitespace collapsed, numbers masked, case folded, bounded. */
const shapeOf = (text: string): string =>
  text.replace(/\s+/g, ' ').trim().slice(0, REPLY_CHARS).replace(/\d+/g, '#').toLowerCase();

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
    description: 'Turns without a tool call answered by the same or an error-like reply, ≥3 times',
    priority: wastePriority('HARNESS_REJECTION'),
    wasteRule: 'the rejected turns: the LLM calls whose output the harness refused',
    fix: "show the agent the harness's expected format in the prompt, and stop the run after repeated rejections",
    rule: 'The agent answers without a tool call and the harness (or the user side of the loop) replies with an error ("Invalid action", "Error: …", a parse error) or with the same message it gave another such turn, `min_rejections` times in a run: the agent spends calls without acting. High on a streak of `high_streak` rejections with no tool call between them, or when the run ends rejected.',
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
    const seen = new Map<string, number>();
    for (const r of replies) seen.set(r.shape, (seen.get(r.shape) ?? 0) + 1);
    const rejected = replies.filter(
      (r) => isErrorLike(r.text) || ((seen.get(r.shape) ?? 0) > 1 && r.shape.length >= MIN_TEMPLATE_CHARS),
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
          `${plural(rejected.length, 'turn')} without a tool call ${identical ? 'got the same reply' : 'got error-like replies'} ` +
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

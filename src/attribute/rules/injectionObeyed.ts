/**
 * The tool result a prompt injection entered through, when the agent obeyed it: the
 * PROMPT_INJECTION_SIGNAL finding says where the injected text arrived (its step) and, when a later
 * call carries what the text asked for, which call obeyed it (`evidence.followed`). The cause is
 * where it entered; the obeying call is its effect.
 */
import { isRecord } from '../../trace/importer.js';
import type { Trace } from '../../trace/schema.js';
import { firstStep } from '../firstStep.js';
import type { AttributionRule, CandidateDraft } from '../rule.js';

const INJECTION_DETECTOR = 'PROMPT_INJECTION_SIGNAL';

/** The signal's `evidence.source` in words. */
const CHANNELS: Record<string, string> = {
  tool_result: 'tool result',
  retrieval: 'retrieved content',
  message: 'message',
  llm_input: 'prompt',
  trace_input: 'input',
};

/**
 * The action itself: the detector names the LLM step whose output carries what the injection asked
 * for; when that output issued calls, the call carrying it (else the first it issued) is the action.
 */
function obeyingCall(trace: Trace, followed: number, target: string): number {
  if (trace.steps[followed - 1]?.type !== 'llm') return followed;
  let first: number | undefined;
  for (const [i, s] of trace.steps.entries()) {
    if (s.type !== 'tool' || s.issuedBy !== followed) continue;
    first ??= i + 1;
    if (
      JSON.stringify(s.args ?? '')
        .toLowerCase()
        .includes(target.toLowerCase())
    )
      return i + 1;
  }
  return first ?? followed;
}

export const injectionObeyed: AttributionRule = {
  meta: {
    id: 'INJECTION_OBEYED',
    description:
      'The tool result a prompt injection entered through, when a later action carries out what it asked (the action is its effect)',
    messages: {
      entered: 'the {{channel}} it read carried injected instructions, which step {{effect}} obeyed',
      obeyed: 'it acted on the injected instructions ({{target}})',
    },
  },
  find(ctx) {
    const out: CandidateDraft[] = [];
    for (const s of ctx.signals) {
      if (s.detector !== INJECTION_DETECTOR || s.shadow || s.steps.length === 0) continue;
      const followed = isRecord(s.evidence?.followed) ? s.evidence.followed : undefined;
      const followedAt = typeof followed?.step === 'number' ? followed.step : undefined;
      if (followedAt === undefined) continue;
      const entry = firstStep(s.steps);
      const target = typeof followed?.target === 'string' ? followed.target : 'what it asked';
      const effect = obeyingCall(ctx.trace, followedAt, target);
      const source = s.evidence?.source;
      const channel = (typeof source === 'string' ? CHANNELS[source] : undefined) ?? 'content';
      out.push({
        step: entry,
        messageId: 'entered',
        data: { channel, effect },
        confidence: 0.9,
        strength: 'evidence',
        basis: { detector: s.detector, step: entry },
        effect: { step: effect, messageId: 'obeyed', data: { target } },
      });
    }
    return out.sort((a, b) => a.step - b.step).slice(0, 1);
  },
};

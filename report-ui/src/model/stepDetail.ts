/**
 * What a step opens to: its prompt or messages, output, tool arguments and result, error, tokens,
 * cost and model, as labelled sections of text. Values from the trace stay text here and in the
 * components (text nodes only): nothing in a trace is ever markup.
 */
import type { Step } from './page.js';
import { formatMs, formatUsd, valueText } from './format.js';

export interface Fact {
  label: string;
  value: string;
}

/** A chat message: who said it, what, and the tool calls it made. */
export interface MessageView {
  role: string;
  text: string;
  toolCalls: { name: string; args: string }[];
}

export interface Section {
  title: string;
  /** Plain text, or the messages of a chat. */
  text?: string | undefined;
  messages?: MessageView[] | undefined;
  /** Drawn as an error. */
  error?: boolean | undefined;
}

export interface StepDetail {
  facts: Fact[];
  sections: Section[];
}

type ChatMessage = {
  role: string;
  name?: string | undefined;
  content?: unknown;
  toolCalls?: { name: string; arguments?: unknown }[] | undefined;
  toolCallId?: string | undefined;
};

function messageView(m: ChatMessage): MessageView {
  const who = m.name ? `${m.role} (${m.name})` : m.role;
  return {
    role: m.toolCallId ? `${who} · call ${m.toolCallId}` : who,
    text: valueText(m.content),
    toolCalls: (m.toolCalls ?? []).map((c) => ({ name: c.name, args: valueText(c.arguments) })),
  };
}

const fact = (label: string, value: string | number | undefined): Fact[] =>
  value === undefined || value === '' ? [] : [{ label, value: String(value) }];

export function stepDetail(step: Step): StepDetail {
  const timing = [
    ...fact('started', step.startedAt),
    ...fact('duration', step.durationMs !== undefined ? formatMs(step.durationMs) : undefined),
  ];
  switch (step.type) {
    case 'llm': {
      const u = step.usage;
      const cached = u.cachedInputTokens ? `, ${u.cachedInputTokens} cached` : '';
      const cost =
        step.costUsd !== undefined
          ? `${formatUsd(step.costUsd)}${step.costSource ? ` (${step.costSource === 'price-table' ? 'price table' : step.costSource})` : ''}`
          : 'not priced';
      const sections: Section[] = [];
      if (typeof step.input === 'string') sections.push({ title: 'Prompt', text: step.input });
      else if (step.input)
        sections.push({ title: `Messages (${step.input.length})`, messages: step.input.map(messageView) });
      if (typeof step.output === 'string') sections.push({ title: 'Output', text: step.output });
      else if (step.output) sections.push({ title: 'Output', messages: [messageView(step.output)] });
      if (step.error !== undefined) sections.push({ title: 'Error', text: step.error, error: true });
      return {
        facts: [
          ...fact('model', step.model),
          ...fact('provider', step.provider),
          { label: 'tokens', value: `${u.inputTokens} in${cached}, ${u.outputTokens} out` },
          { label: 'cost', value: cost },
          ...fact('finish', step.finishReason),
          ...timing,
        ],
        sections,
      };
    }
    case 'tool': {
      const sections: Section[] = [];
      if (step.args !== undefined) sections.push({ title: 'Arguments', text: valueText(step.args) });
      if (step.result !== undefined) sections.push({ title: 'Result', text: valueText(step.result) });
      if (step.error !== undefined) sections.push({ title: 'Error', text: step.error, error: true });
      return {
        facts: [
          ...fact('tool', step.name),
          ...fact('status', step.status),
          ...fact('call id', step.callId),
          ...fact('issued by', step.issuedBy !== undefined ? `step ${step.issuedBy}` : undefined),
          ...timing,
        ],
        sections,
      };
    }
    case 'retrieval':
      return {
        facts: [...fact('results', step.results.length), ...timing],
        sections: [
          ...(step.query !== undefined ? [{ title: 'Query', text: step.query }] : []),
          ...step.results.map((r, i) => ({
            title: `Result ${i + 1}${r.id !== undefined ? ` · ${r.id}` : ''}${r.score !== undefined ? ` · score ${r.score}` : ''}`,
            text: r.content ?? '',
          })),
        ],
      };
    case 'state':
      return {
        facts: [...fact('agent', step.agentId), ...timing],
        sections: [{ title: 'State', text: valueText(step.state) }],
      };
    case 'message':
      return {
        facts: [...fact('from', step.from), ...fact('to', step.to), ...timing],
        sections: [{ title: 'Content', text: valueText(step.content) }],
      };
  }
}

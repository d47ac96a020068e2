/**
 * What the session signals need of a trace, taken while the trace is in hand (at detection time, in
 * whichever thread ran the detectors) so that the trace itself can be dropped: a few numbers and a
 * small fixed-size fingerprint. fromDetectorSignals.ts turns these, the trace's final signals and
 * any verdict into the four per-trace signals; sessions.ts compares fingerprints across a session.
 */
import { stableJson } from '../detect/detectors/structural/shared.js';
import type { Trace } from '../trace/schema.js';
import { contentTokens, lexicalSimilarity, sketch, textOf, type Similarity } from './similarity.js';

/** The per-trace tuple a TraceResult carries for the session metrics (run/protocol.ts). */
export interface SessionFacts {
  /** Tool steps, and those among them that failed (status error). */
  toolSteps: number;
  failedToolSteps: number;
  /** Similarity of the trace's input and output, when both have text enough to compare. */
  ioSimilarity?: number;
  /**
   * Bottom-k sketch (similarity.ts) of the trace's tool calls (name and arguments, numbered by
   * occurrence) and the word trigrams of its output: near-identical runs have near-identical sketches.
   */
  fingerprint: number[];
}

/** Argument text hashed per call: a larger argument is cut (its start still tells calls apart). */
const MAX_ARGS_CHARS = 4_000;

export interface SessionFactsOptions {
  /** How alike input and output are (default: lexicalSimilarity; an embedding one can come later). */
  similarity?: Similarity;
}

export function sessionFactsOf(trace: Trace, options: SessionFactsOptions = {}): SessionFacts {
  const similarity = options.similarity ?? lexicalSimilarity;
  let toolSteps = 0;
  let failedToolSteps = 0;
  const tokens: string[] = [];
  const seen = new Map<string, number>();
  for (const step of trace.steps) {
    if (step.type !== 'tool') continue;
    toolSteps++;
    if (step.status === 'error') failedToolSteps++;
    const call = `t:${step.name}(${stableJson(step.args).slice(0, MAX_ARGS_CHARS)})`;
    const n = (seen.get(call) ?? 0) + 1;
    seen.set(call, n);
    tokens.push(`${call}#${n}`);
  }
  const input = textOf(trace.input ?? firstUserText(trace));
  const output = textOf(trace.output ?? lastLlmOutput(trace));
  const words = contentTokens(output);
  if (words.length > 0 && words.length < 3) tokens.push(`o:${words.join(' ')}`);
  for (let i = 0; i + 2 < words.length; i++) tokens.push(`o:${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  const io = input && output ? similarity(input, output) : undefined;
  return {
    toolSteps,
    failedToolSteps,
    ...(io === undefined || !Number.isFinite(io) ? {} : { ioSimilarity: Math.min(1, Math.max(0, io)) }),
    fingerprint: sketch(tokens),
  };
}

/** The user's part of the first LLM call's prompt, when the trace records no input of its own. */
function firstUserText(trace: Trace): unknown {
  for (const step of trace.steps) {
    if (step.type !== 'llm' || step.input === undefined) continue;
    if (typeof step.input === 'string') return step.input;
    return step.input.filter((m) => m.role === 'user').map((m) => m.content);
  }
  return undefined;
}

/** The last LLM call's answer text, when the trace records no output of its own. */
function lastLlmOutput(trace: Trace): unknown {
  for (let i = trace.steps.length - 1; i >= 0; i--) {
    const step = trace.steps[i]!;
    if (step.type !== 'llm' || step.output === undefined) continue;
    const text = textOf(step.output);
    if (text.trim()) return text;
  }
  return undefined;
}

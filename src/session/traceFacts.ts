/**
 * What the session signals need of a trace, taken while the trace is in hand (at detection time, in
 * whichever thread ran the detectors) so that the trace itself can be dropped: a few numbers and a
 * small fixed-size fingerprint. fromDetectorSignals.ts turns these, the trace's final signals and
 * any verdict into the four per-trace signals; sessions.ts compares fingerprints across a session.
 */
import { stableJson } from '../detect/detectors/structural/shared.js';
import type { Trace } from '../trace/schema.js';
import { BottomK, PartWords, readDistinctParts, WordList, WordSet } from './contentWords.js';
import {
  FNV_OFFSET,
  fnvStep,
  hash32,
  MAX_TEXT_CHARS,
  MIN_CONTENT_TOKENS,
  SKETCH_SIZE,
  textOf,
  textParts,
  type Similarity,
} from './similarity.js';

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
   * Empty when it was not asked for (a trace that names no session is compared with no other).
   */
  fingerprint: number[];
}

/** Argument text hashed per call: a larger argument is cut (its start still tells calls apart). */
const MAX_ARGS_CHARS = 4_000;

export interface SessionFactsOptions {
  /** How alike input and output are (default: lexicalSimilarity; an embedding one can come later). */
  similarity?: Similarity;
  /** Take the fingerprint (default true; only a trace of a recorded session is compared with others). */
  fingerprint?: boolean;
}

// Reused from trace to trace (this is synchronous, and each worker thread has its own).
const inputWords = new WordList();
const outputWords = new WordList();
const inputSet = new WordSet();
const outputSet = new WordSet();
/** Long input parts seen before (system prompts, repeated in every call of an agent). */
const partWords = new PartWords();

/** hash32 of "o:", where every output token starts. */
const OUTPUT_PREFIX = fnvStep(fnvStep(FNV_OFFSET, 0x6f), 0x3a);
const SPACE = 0x20;

/** FNV-1a continued over word i of the list. */
function hashWord(h: number, words: WordList, i: number): number {
  const { text } = words;
  const start = words.starts[i]!;
  const end = start + words.lengths[i]!;
  for (let k = start; k < end; k++) h = fnvStep(h, text.charCodeAt(k));
  return h;
}

/**
 * lexicalSimilarity (similarity.ts) of two texts already read as word lists: the cosine of their
 * sets of content words, undefined when either has fewer than MIN_CONTENT_TOKENS distinct words.
 */
function wordsSimilarity(a: WordList, b: WordList): number | undefined {
  const x = inputSet.build(a);
  const y = outputSet.build(b);
  if (x.size < MIN_CONTENT_TOKENS || y.size < MIN_CONTENT_TOKENS) return undefined;
  let shared = 0;
  for (let m = 0; m < x.size; m++) if (y.has(a, x.members[m]!)) shared++;
  return shared / Math.sqrt(x.size * y.size);
}

export function sessionFactsOf(trace: Trace, options: SessionFactsOptions = {}): SessionFacts {
  const wantFingerprint = options.fingerprint !== false;
  let toolSteps = 0;
  let failedToolSteps = 0;
  const sketch = new BottomK(SKETCH_SIZE);
  const seen = new Map<string, number>();
  for (const step of trace.steps) {
    if (step.type !== 'tool') continue;
    toolSteps++;
    if (step.status === 'error') failedToolSteps++;
    if (!wantFingerprint) continue;
    const call = `t:${step.name}(${stableJson(step.args).slice(0, MAX_ARGS_CHARS)})`;
    const n = (seen.get(call) ?? 0) + 1;
    seen.set(call, n);
    sketch.offer(hash32(`${call}#${n}`));
  }
  const inputParts = textParts(trace.input ?? firstUserText(trace));
  const output = textOf(trace.output ?? lastLlmOutput(trace));
  let io: number | undefined;
  if (options.similarity) {
    const input = inputParts.join('\n').slice(0, MAX_TEXT_CHARS);
    io = input && output ? options.similarity(input, output) : undefined;
    if (wantFingerprint) outputWords.read(output);
  } else {
    outputWords.read(output);
    // Only the input's distinct words count (read with its long parts remembered).
    io =
      output && readDistinctParts(inputWords, inputParts, partWords)
        ? wordsSimilarity(inputWords, outputWords)
        : undefined;
  }
  if (wantFingerprint) {
    const words = outputWords;
    // The output's word trigrams ("o:w1 w2 w3"), or its one or two words, hashed as hash32 would.
    if (words.count > 0 && words.count < 3) {
      let h = OUTPUT_PREFIX;
      for (let i = 0; i < words.count; i++) h = hashWord(i === 0 ? h : fnvStep(h, SPACE), words, i);
      sketch.offer(h >>> 0);
    }
    for (let i = 0; i + 2 < words.count; i++) {
      let h = hashWord(OUTPUT_PREFIX, words, i);
      h = hashWord(fnvStep(h, SPACE), words, i + 1);
      h = hashWord(fnvStep(h, SPACE), words, i + 2);
      sketch.offer(h >>> 0);
    }
  }
  return {
    toolSteps,
    failedToolSteps,
    ...(io === undefined || !Number.isFinite(io) ? {} : { ioSimilarity: Math.min(1, Math.max(0, io)) }),
    fingerprint: sketch.values,
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

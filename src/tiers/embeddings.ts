/**
 * Tier 3 for gray-zone signals (detection-tiers.md): before any judge, a signal whose failure mode
 * has a semantic check is re-scored from embeddings — loops and stalls by semantic loops over the
 * signal's steps, abandonment and grounding by task-vs-output similarity and grounding in the
 * retrieved documents, persona drift by role-vs-behaviour. When the new confidence leaves the gray
 * zone the signal is resolved at tier 3; otherwise it keeps its confidence, notes what tier 3 saw,
 * and goes on to tier 4. No-downgrade detectors may only be raised. Texts are redacted before they
 * are embedded (an embeddings endpoint is a third party too).
 */
import type { Detector } from '../detect/detector.js';
import { GRAY_ZONE_LOWER, GRAY_ZONE_UPPER, isGrayZone } from '../detect/grayZone.js';
import type { Signal } from '../detect/signal.js';
import type { Embedder } from '../embed/embedder.js';
import { redact } from '../redact/redact.js';
import type { Step, Trace } from '../trace/schema.js';
import {
  grounding,
  requestFollowed,
  roleDrift,
  semanticLoop,
  taskVsOutput,
  type SemanticCheck,
} from './semanticChecks.js';

/** Longest text sent to an embedder (models cut at a few thousand tokens anyway). */
const MAX_TEXT_CHARS = 4000;
/** Retrieved documents compared with the output, at most. */
const MAX_DOCUMENTS = 32;

export const SEMANTIC_CHECKS_BY_FAILURE_MODE: Readonly<Record<string, readonly string[]>> = {
  loop: ['semantic-loop'],
  stall: ['semantic-loop'],
  abandonment: ['task-vs-output', 'grounding'],
  grounding: ['task-vs-output', 'grounding'],
  // An injected instruction that took hold shows as outputs drifting from the role the system
  // prompt defines; injection is no-downgrade, so this check can confirm a case, never clear it.
  // A request to the reader (found sentence by sentence, not by the patterns) is checked instead by
  // whether an output after it does what it asked (see planFor).
  injection: ['role-drift', 'request-followed'],
};

export interface Tier3Options {
  embedder: Embedder;
  noDowngrade: ReadonlySet<string>;
  describe: (detectorId: string) => Detector['meta'] | undefined;
}

export interface Tier3Result {
  /** The signals after tier 3, without those it resolved as no failure (they are in `cleared`). */
  signals: Signal[];
  cleared: Signal[];
  /** Signals tier 3 examined, and how many it resolved. */
  checked: number;
  resolved: number;
  /** Set when the embedder failed: the signals went on unchanged. */
  error?: string;
}

function textOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const raw = typeof value === 'string' ? value : JSON.stringify(value);
  if (!raw || !raw.trim()) return undefined;
  return redact(raw).slice(0, MAX_TEXT_CHARS);
}

/** What a step says: a tool call's arguments (the request), an LLM's output, a message's content. */
function stepText(step: Step): string | undefined {
  switch (step.type) {
    case 'tool':
      return textOf(step.args ?? step.name);
    case 'llm':
      return typeof step.output === 'object' && step.output !== null
        ? textOf(step.output.content ?? step.output.toolCalls)
        : textOf(step.output);
    case 'message':
      return textOf(step.content);
    case 'retrieval':
      return textOf(step.query);
    case 'state':
      return undefined;
  }
}

function finalOutput(trace: Trace): string | undefined {
  const recorded = textOf(trace.output);
  if (recorded) return recorded;
  for (let i = trace.steps.length - 1; i >= 0; i--) {
    const s = trace.steps[i]!;
    if (s.type === 'llm') return stepText(s);
  }
  return undefined;
}

function systemPrompt(trace: Trace): string | undefined {
  for (const s of trace.steps) {
    if (s.type !== 'llm' || !Array.isArray(s.input)) continue;
    const system = s.input.find((m) => m.role === 'system');
    if (system) return textOf(system.content);
  }
  return undefined;
}

/**
 * The sentence of a request to the reader that scored an injection signal (its evidence `request`,
 * when that reading is the signal's confidence), else undefined.
 */
function readerRequestOf(signal: Signal): string | undefined {
  const r = signal.evidence?.request as { excerpt?: unknown; confidence?: unknown } | undefined;
  if (r === undefined || typeof r.excerpt !== 'string' || r.confidence !== signal.confidence)
    return undefined;
  return r.excerpt;
}

/** Texts to embed for one signal, and how to turn their vectors into checks. */
interface Plan {
  texts: string[];
  run(vectors: number[][]): SemanticCheck[];
}

function planFor(trace: Trace, signal: Signal, checks: readonly string[]): Plan | undefined {
  const texts: string[] = [];
  const slot = (t: string) => texts.push(t) - 1;
  const parts: ((v: number[][]) => SemanticCheck | undefined)[] = [];
  // A loop TOOL_LOOP found by comparing the requests themselves, whose results were recorded and
  // changed: that the requests restate one another is what it measured, so the embeddings could
  // only agree. What came back decides it (tier 2, then the judges).
  const requestsCompared =
    signal.evidence?.repeatedBy === 'arguments' && signal.evidence?.outcomesRecorded === true;
  if (checks.includes('semantic-loop') && !requestsCompared) {
    const idx = signal.steps
      .map((n) => trace.steps[n - 1])
      .map((s) => (s ? stepText(s) : undefined))
      .filter((t): t is string => t !== undefined)
      .map(slot);
    if (idx.length >= 2) parts.push((v) => semanticLoop(idx.map((i) => v[i]!)));
  }
  const output = finalOutput(trace);
  if (checks.includes('task-vs-output') && output) {
    const task = textOf(trace.input);
    if (task) {
      const [t, o] = [slot(task), slot(output)];
      parts.push((v) => taskVsOutput(v[t]!, v[o]!));
    }
  }
  if (checks.includes('grounding') && output) {
    const docs = trace.steps
      .flatMap((s) => (s.type === 'retrieval' ? s.results : []))
      .map((r) => textOf(r.content))
      .filter((t): t is string => t !== undefined)
      .slice(0, MAX_DOCUMENTS);
    if (docs.length > 0) {
      const o = slot(output);
      const d = docs.map(slot);
      parts.push((v) =>
        grounding(
          v[o]!,
          d.map((i) => v[i]!),
        ),
      );
    }
  }
  // A request to the reader scored the signal: what the agent wrote after it says whether it took
  // hold; drift from the role says little (a short answer drifts from any system prompt).
  const request = readerRequestOf(signal);
  if (checks.includes('request-followed') && request !== undefined) {
    const after = Math.max(0, ...signal.steps);
    const outputs = trace.steps
      .slice(after)
      .filter((s) => s.type === 'llm')
      .map(stepText)
      .filter((t): t is string => t !== undefined);
    if (outputs.length > 0) {
      const r = slot(request);
      const o = outputs.map(slot);
      parts.push((v) =>
        requestFollowed(
          v[r]!,
          o.map((i) => v[i]!),
        ),
      );
    }
  }
  if (checks.includes('role-drift') && request === undefined) {
    const role = systemPrompt(trace);
    const outputs = trace.steps
      .filter((s) => s.type === 'llm')
      .map(stepText)
      .filter((t): t is string => t !== undefined);
    if (role && outputs.length > 0) {
      const r = slot(role);
      const o = outputs.map(slot);
      parts.push((v) =>
        roleDrift(
          v[r]!,
          o.map((i) => v[i]!),
        ),
      );
    }
  }
  if (parts.length === 0) return undefined;
  return {
    texts,
    run: (v) => parts.map((p) => p(v)).filter((c): c is SemanticCheck => c !== undefined),
  };
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

export async function escalateWithEmbeddings(
  trace: Trace,
  signals: Signal[],
  options: Tier3Options,
): Promise<Tier3Result> {
  const plans = signals.map((signal) => {
    if (!isGrayZone(signal) || signal.shadow) return undefined;
    const mode = options.describe(signal.detector)?.failureMode;
    const checks = mode ? SEMANTIC_CHECKS_BY_FAILURE_MODE[mode] : undefined;
    return checks ? planFor(trace, signal, checks) : undefined;
  });
  const checked = plans.filter(Boolean).length;
  if (checked === 0) return { signals, cleared: [], checked: 0, resolved: 0 };

  // One embed call for the whole trace: identical texts are sent once.
  const unique = [...new Set(plans.flatMap((p) => p?.texts ?? []))];
  let vectors: Map<string, number[]>;
  try {
    const embedded = await options.embedder.embed(unique);
    vectors = new Map(unique.map((t, i) => [t, embedded[i]!]));
  } catch (e) {
    return { signals, cleared: [], checked, resolved: 0, error: (e as Error).message };
  }

  const name = options.embedder.name;
  let resolved = 0;
  const out = signals.map((signal, i) => {
    const plan = plans[i];
    if (!plan) return signal;
    const results = plan.run(plan.texts.map((t) => vectors.get(t)!));
    const adjustment = results.reduce((a, c) => a + c.adjustment, 0);
    const said = results.map((c) => `${c.check}: ${c.evidence}`).join('; ');
    let confidence = clamp01(signal.confidence + adjustment);
    if (options.noDowngrade.has(signal.detector)) confidence = Math.max(confidence, signal.confidence);
    if (confidence >= GRAY_ZONE_LOWER && confidence <= GRAY_ZONE_UPPER) {
      return {
        ...signal,
        evidence: { ...signal.evidence, tier3: `tier 3 (embeddings: ${name}) undecided: ${said}` },
      };
    }
    resolved++;
    return {
      ...signal,
      confidence,
      tier: 3,
      evidence: {
        ...signal.evidence,
        escalation: `tier 3 (embeddings: ${name}) ${confidence > GRAY_ZONE_UPPER ? 'confirmed the failure' : 'found no failure'}: ${said}`,
        detectorConfidence: signal.confidence,
      },
    };
  });
  const cleared = out.filter((s, i) => s !== signals[i] && s.tier === 3 && s.confidence < GRAY_ZONE_LOWER);
  return { signals: out.filter((s) => !cleared.includes(s)), cleared, checked, resolved };
}

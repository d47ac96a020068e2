/**
 * Tier 3's semantic checks (detection-tiers.md, "Embedding / ML detection"), pure over vectors:
 * each compares embeddings and returns how much a gray-zone failure's confidence should move, and
 * why. A positive adjustment supports the suspected failure, a negative one speaks against it, 0
 * means the embeddings cannot tell (the case goes on to the tribunal).
 *
 * The default thresholds suit the offline lexical embedder (unrelated texts score near 0); neural
 * models score unrelated texts higher, so their callers pass their own.
 *
 * Thresholds are inclusive on the side they name: a loop needs every consecutive cosine ≥
 * `threshold`; requests are distinct when every one is < `distinct`; and so on.
 */
import { cosine } from '../embed/embedder.js';

export type SemanticCheckName =
  'semantic-loop' | 'task-vs-output' | 'grounding' | 'role-drift' | 'request-followed';

export interface SemanticCheck {
  check: SemanticCheckName;
  /** Added to the detector's confidence (then clamped to 0–1). */
  adjustment: number;
  /** The similarity the check decided on (min, max or mean cosine, as `evidence` says). */
  similarity: number;
  evidence: string;
}

const DEFAULT_ADJUSTMENT = 0.25;
const f2 = (x: number) => x.toFixed(2);

export interface LoopThresholds {
  /** Every consecutive pair at or above this: the same request reworded (default 0.8). */
  threshold?: number;
  /** Every consecutive pair below this: distinct requests (default 0.4). */
  distinct?: number;
  adjustment?: number;
}

/**
 * Semantic loops: consecutive tool calls or LLM outputs that say the same thing in other words.
 * Undefined with fewer than two steps to compare.
 */
export function semanticLoop(
  vectors: readonly number[][],
  t: LoopThresholds = {},
): SemanticCheck | undefined {
  if (vectors.length < 2) return undefined;
  const threshold = t.threshold ?? 0.8;
  const distinct = t.distinct ?? 0.4;
  const adj = t.adjustment ?? DEFAULT_ADJUSTMENT;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 1; i < vectors.length; i++) {
    const c = cosine(vectors[i - 1]!, vectors[i]!);
    if (c < min) min = c;
    if (c > max) max = c;
  }
  const pairs = vectors.length - 1;
  if (min >= threshold)
    return {
      check: 'semantic-loop',
      adjustment: adj,
      similarity: min,
      evidence: `${vectors.length} consecutive steps restate one request (min cosine ${f2(min)} ≥ ${f2(threshold)})`,
    };
  if (max < distinct)
    return {
      check: 'semantic-loop',
      adjustment: -adj,
      similarity: max,
      evidence: `${vectors.length} consecutive steps ask different things (max cosine ${f2(max)} < ${f2(distinct)})`,
    };
  return {
    check: 'semantic-loop',
    adjustment: 0,
    similarity: min,
    evidence: `${pairs} consecutive pair${pairs === 1 ? '' : 's'} with cosine ${f2(min)}–${f2(max)}: neither a clear loop nor clearly distinct`,
  };
}

export interface TaskThresholds {
  /** Output-to-task cosine below this: the output is far from the task (default 0.2). */
  far?: number;
  /** At or above this: the output addresses the task (default 0.45). */
  near?: number;
  adjustment?: number;
}

/** Derailment / context neglect: how close the final output is to the task it was given. */
export function taskVsOutput(
  task: readonly number[],
  output: readonly number[],
  t: TaskThresholds = {},
): SemanticCheck {
  const far = t.far ?? 0.2;
  const near = t.near ?? 0.45;
  const adj = t.adjustment ?? DEFAULT_ADJUSTMENT;
  const c = cosine(task, output);
  if (c < far)
    return {
      check: 'task-vs-output',
      adjustment: adj,
      similarity: c,
      evidence: `output is far from the task (cosine ${f2(c)} < ${f2(far)})`,
    };
  if (c >= near)
    return {
      check: 'task-vs-output',
      adjustment: -adj,
      similarity: c,
      evidence: `output addresses the task (cosine ${f2(c)} ≥ ${f2(near)})`,
    };
  return {
    check: 'task-vs-output',
    adjustment: 0,
    similarity: c,
    evidence: `output-to-task cosine ${f2(c)} is between ${f2(far)} and ${f2(near)}`,
  };
}

export interface GroundingThresholds {
  /** Best output-to-document cosine at or above this: grounded (default 0.5). */
  grounded?: number;
  /** Below this: not grounded in anything retrieved (default 0.2). */
  ungrounded?: number;
  adjustment?: number;
}

/** Grounding: the best match between the output and any retrieved document. Undefined with none. */
export function grounding(
  output: readonly number[],
  documents: readonly number[][],
  t: GroundingThresholds = {},
): SemanticCheck | undefined {
  if (documents.length === 0) return undefined;
  const grounded = t.grounded ?? 0.5;
  const ungrounded = t.ungrounded ?? 0.2;
  const adj = t.adjustment ?? DEFAULT_ADJUSTMENT;
  let best = -Infinity;
  for (const d of documents) best = Math.max(best, cosine(output, d));
  const of = `${documents.length} retrieved document${documents.length === 1 ? '' : 's'}`;
  if (best >= grounded)
    return {
      check: 'grounding',
      adjustment: -adj,
      similarity: best,
      evidence: `output is grounded in the ${of} (max cosine ${f2(best)} ≥ ${f2(grounded)})`,
    };
  if (best < ungrounded)
    return {
      check: 'grounding',
      adjustment: adj,
      similarity: best,
      evidence: `output matches none of the ${of} (max cosine ${f2(best)} < ${f2(ungrounded)})`,
    };
  return {
    check: 'grounding',
    adjustment: 0,
    similarity: best,
    evidence: `best match with the ${of} has cosine ${f2(best)}, between ${f2(ungrounded)} and ${f2(grounded)}`,
  };
}

export interface RoleThresholds {
  /** Mean output-to-role cosine below this: the behaviour drifted from the role (default 0.1). */
  drift?: number;
  /** At or above this: the outputs stay in role (default 0.35). */
  aligned?: number;
  adjustment?: number;
}

/** Role-definition vs behaviour: the mean cosine of the outputs to the system prompt. Undefined with no outputs. */
export function roleDrift(
  role: readonly number[],
  outputs: readonly number[][],
  t: RoleThresholds = {},
): SemanticCheck | undefined {
  if (outputs.length === 0) return undefined;
  const drift = t.drift ?? 0.1;
  const aligned = t.aligned ?? 0.35;
  const adj = t.adjustment ?? DEFAULT_ADJUSTMENT;
  let sum = 0;
  for (const o of outputs) sum += cosine(role, o);
  const mean = sum / outputs.length;
  if (mean < drift)
    return {
      check: 'role-drift',
      adjustment: adj,
      similarity: mean,
      evidence: `outputs drifted from the role definition (mean cosine ${f2(mean)} < ${f2(drift)})`,
    };
  if (mean >= aligned)
    return {
      check: 'role-drift',
      adjustment: -adj,
      similarity: mean,
      evidence: `outputs stay in the role definition (mean cosine ${f2(mean)} ≥ ${f2(aligned)})`,
    };
  return {
    check: 'role-drift',
    adjustment: 0,
    similarity: mean,
    evidence: `mean output-to-role cosine ${f2(mean)} is between ${f2(drift)} and ${f2(aligned)}`,
  };
}

export interface FollowedThresholds {
  /** Best request-to-output cosine at or above this: the agent did what the request asked (default 0.35). */
  followed?: number;
  adjustment?: number;
}

/**
 * A request to the reader found inside data (PROMPT_INJECTION_SIGNAL's reader requests) against the
 * agent's outputs after it: an output that says what the request asked for (the poem, the book, the
 * code block, the sentence to add) shows the request took hold, which confirms it. An output that
 * does not proves nothing — an agent that resisted was still attacked — so the check never lowers
 * the confidence: the case stays for the tribunal or for review. Undefined with no output after it.
 */
export function requestFollowed(
  request: readonly number[],
  outputs: readonly number[][],
  t: FollowedThresholds = {},
): SemanticCheck | undefined {
  if (outputs.length === 0) return undefined;
  const followed = t.followed ?? 0.35;
  const adj = t.adjustment ?? DEFAULT_ADJUSTMENT;
  let best = -Infinity;
  for (const o of outputs) best = Math.max(best, cosine(request, o));
  if (best >= followed)
    return {
      check: 'request-followed',
      adjustment: adj,
      similarity: best,
      evidence: `an output after it does what the request asked (max cosine ${f2(best)} ≥ ${f2(followed)})`,
    };
  return {
    check: 'request-followed',
    adjustment: 0,
    similarity: best,
    evidence: `no output after it does what the request asked (max cosine ${f2(best)} < ${f2(followed)}): attacked or not, the embeddings cannot tell`,
  };
}

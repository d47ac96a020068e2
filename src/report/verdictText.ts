/**
 * A judges' verdict in words, the same wherever a report shows it (text, markdown, the HTML
 * viewer, which bundles this module): the outcome, the consensus score and confidence against the
 * threshold, how many judges passed, their disagreement, cost and latency, and "replayed from the
 * cassette" when the cassette decided it; then each judge's model, score, confidence and reasoning
 * (or error). Pure and free of Node APIs. Its strings carry judges' reasoning, which is hostile text:
 * the renderers escape them (safeText, markdown helpers; the viewer renders text nodes only).
 */
import type { JudgeEval, Verdict } from '../judge/verdict.js';
import { fmtInt, plural } from '../util/thousands.js';
import { formatUsd } from '../util/usd.js';

export type VerdictOutcome = 'passed' | 'failed' | 'indeterminate';

type VerdictFields = Pick<
  Verdict,
  | 'passed'
  | 'indeterminate'
  | 'score'
  | 'confidence'
  | 'threshold'
  | 'disagreement'
  | 'highDisagreement'
  | 'costUsd'
  | 'latencyMs'
  | 'judges'
  | 'replayed'
>;

export function verdictOutcome(v: Pick<Verdict, 'passed' | 'indeterminate'>): VerdictOutcome {
  return v.indeterminate ? 'indeterminate' : v.passed ? 'passed' : 'failed';
}

const two = (n: number) => n.toFixed(2);

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

/**
 * "score 0.42 < 0.7, confidence 0.90 ≥ 0.7 · 1 of 3 judges passed · disagreement 0.12 · $0.0021 ·
 * 1.4 s · replayed from the cassette". A verdict from a report before 1.4 has no threshold: the
 * score and confidence are shown alone.
 */
export function verdictFacts(v: VerdictFields): string {
  const against = (x: number) =>
    v.threshold === undefined ? two(x) : `${two(x)} ${x >= v.threshold ? '≥' : '<'} ${v.threshold}`;
  const passes = v.judges.filter((j) => j.passed).length;
  const facts = [
    `score ${against(v.score)}, confidence ${against(v.confidence)}`,
    v.judges.length > 0
      ? `${fmtInt(passes)} of ${plural(v.judges.length, 'judge')} passed`
      : 'no judge asked',
    `disagreement ${two(v.disagreement)}${v.highDisagreement ? ' (high: review)' : ''}`,
    formatUsd(v.costUsd),
    duration(v.latencyMs),
  ];
  if (v.replayed) facts.push('replayed from the cassette');
  return facts.join(' · ');
}

/** One judge: "openai:gpt-4o — passed, score 0.90, confidence 0.80, replayed" (its reasoning apart). */
export function judgeFacts(
  j: Pick<JudgeEval, 'provider' | 'model' | 'score' | 'confidence' | 'passed' | 'error' | 'replayed'>,
): string {
  const head = `${j.provider}:${j.model}`;
  const facts =
    j.error !== undefined
      ? ['could not judge']
      : [
          j.passed ? 'passed' : 'failed',
          ...(j.score !== undefined ? [`score ${two(j.score)}`] : []),
          ...(j.confidence !== undefined ? [`confidence ${two(j.confidence)}`] : []),
        ];
  if (j.replayed) facts.push('replayed');
  return `${head} — ${facts.join(', ')}`;
}

/** What a judge said: its reasoning, or its error when it could not judge. */
export function judgeSaid(j: Pick<JudgeEval, 'reasoning' | 'error'>): string {
  return j.error ?? j.reasoning ?? '';
}

export interface VerdictCounts {
  verdicts: number;
  passed: number;
  failed: number;
  indeterminate: number;
  replayed: number;
}

export function verdictCounts(
  verdicts: readonly Pick<Verdict, 'passed' | 'indeterminate' | 'replayed'>[],
): VerdictCounts {
  const counts: VerdictCounts = {
    verdicts: verdicts.length,
    passed: 0,
    failed: 0,
    indeterminate: 0,
    replayed: 0,
  };
  for (const v of verdicts) {
    counts[verdictOutcome(v)]++;
    if (v.replayed) counts.replayed++;
  }
  return counts;
}

/** "3 verdicts: 2 passed, 1 failed, 0 indeterminate (3 replayed from the cassette)". */
export function verdictCountsText(c: VerdictCounts): string {
  return (
    `${plural(c.verdicts, 'verdict')}: ${fmtInt(c.passed)} passed, ${fmtInt(c.failed)} failed, ` +
    `${fmtInt(c.indeterminate)} indeterminate` +
    (c.replayed > 0 ? ` (${fmtInt(c.replayed)} replayed from the cassette)` : '')
  );
}

/**
 * Consensus over the judges that answered. Pure.
 *
 * - 1–4 judges: the median (outlier resistant: [0.9, 0.9, 0.1] → 0.9);
 * - 5 or more: the 20 % trimmed mean (drop floor(0.2·n) lowest and highest, average the rest).
 * - passed = consensus score ≥ threshold AND consensus confidence ≥ threshold AND a strict
 *   majority of the judges passed (2 of 3, 3 of 5, …).
 * - disagreement = max(score) − min(score), the range of the judges' scores: in [0, 1] because
 *   scores are, 0 when every judge gave the same score, 1 when one said 0 and another 1.
 *   Above 0.3 it is flagged as high.
 */

export const HIGH_DISAGREEMENT = 0.3;

export interface JudgeVote {
  score: number;
  confidence: number;
  passed: boolean;
}

export interface Consensus {
  score: number;
  confidence: number;
  passed: boolean;
  majority: boolean;
  passes: number;
  disagreement: number;
  highDisagreement: boolean;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function trimmedMean(values: readonly number[], fraction = 0.2): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const k = Math.floor(s.length * fraction);
  const kept = s.slice(k, s.length - k);
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}

/** Median for fewer than 5 values, 20 % trimmed mean from 5 on. */
export function central(values: readonly number[]): number {
  return values.length >= 5 ? trimmedMean(values, 0.2) : median(values);
}

export function disagreement(scores: readonly number[]): number {
  if (scores.length < 2) return 0;
  return Math.min(1, Math.max(0, Math.max(...scores) - Math.min(...scores)));
}

export function consensus(votes: readonly JudgeVote[], threshold: number): Consensus {
  const scores = votes.map((v) => v.score);
  const score = central(scores);
  const confidence = central(votes.map((v) => v.confidence));
  const passes = votes.filter((v) => v.passed).length;
  const majority = votes.length > 0 && passes * 2 > votes.length;
  const d = disagreement(scores);
  return {
    score,
    confidence,
    passes,
    majority,
    passed: votes.length > 0 && score >= threshold && confidence >= threshold && majority,
    disagreement: d,
    highDisagreement: d > HIGH_DISAGREEMENT,
  };
}

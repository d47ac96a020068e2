/** A Vitest run's tests: failed first, with attempts, pass^k and pass@k worded for a row. */
import type { TestResult } from './page.js';

const STATE_ORDER = { failed: 0, passed: 1, skipped: 2 } as const;

export function testsInOrder(tests: readonly TestResult[]): TestResult[] {
  return tests
    .map((t, i) => ({ t, i }))
    .sort((a, b) => STATE_ORDER[a.t.state] - STATE_ORDER[b.t.state] || a.i - b.i)
    .map((x) => x.t);
}

/** "3/5 attempts passed" (or "1 attempt" for a test run once). */
export function attemptsText(t: Pick<TestResult, 'attempts' | 'passedAttempts'>): string {
  if (t.attempts === 0) return 'not run';
  if (t.attempts === 1) return t.passedAttempts === 1 ? '1 attempt, passed' : '1 attempt, failed';
  return `${t.passedAttempts}/${t.attempts} attempts passed`;
}

/** "k=1 0.60 · k=2 0.30 · k=3 0.10" for pass^k or pass@k (index k−1). */
export function passKText(values: readonly number[] | undefined): string {
  if (!values || values.length === 0) return '';
  return values.map((v, i) => `k=${i + 1} ${v.toFixed(2)}`).join(' · ');
}

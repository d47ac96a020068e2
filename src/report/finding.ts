/**
 * What counts as a finding when a report counts signals against recorded outcomes, and when
 * `baseline update` decides a run was bad: not suppressed, not shadow, and confident (above the
 * gray zone). Kept as one predicate so it can become `signal.status === 'finding'` in one place.
 */
import type { Signal } from '../detect/signal.js';
import { statusOf } from '../detect/status.js';

export function isFinding(signal: Signal): boolean {
  return statusOf(signal) === 'finding';
}

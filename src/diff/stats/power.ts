/**
 * The smallest change a comparison could tell from noise: the change that a one-sided test at
 * level `alpha` finds with probability `power` (80 % by convention), for the runs at hand. Normal
 * approximations, so they are a guide ("at 20 runs a side a drop under 40 points cannot be told
 * from noise"), not the gate: the gate's exact tests decide. They assume independent runs, which
 * errs on the safe side for a paired comparison (pairing removes task-to-task variation) and on
 * the optimistic side for runs clustered in few tasks (pass the number of tasks as n then).
 *
 * - Proportions: the two-sample z-test with the pooled variance under the null,
 *   power(Δ) = Φ((Δ − z_α·√(p̄q̄(1/n₁ + 1/n₂))) / √(p₁q₁/n₁ + p₂q₂/n₂)), p₂ = p₁ ∓ Δ, solved for Δ.
 * - Means: Δ = (z_α + z_β) · √(s₁²/n₁ + s₂²/n₂).
 */
import { normalCdf, normalQuantile } from './normal.js';

export interface ProportionPower {
  /** The base side's rate (the change is measured from it). */
  rate: number;
  baseRuns: number;
  headRuns: number;
  /** `down` for a drop (success), `up` for a rise (share of runs with a finding). */
  direction: 'down' | 'up';
  alpha: number;
  power?: number;
}

function proportionPower(
  d: number,
  p1: number,
  n1: number,
  n2: number,
  zAlpha: number,
  sign: -1 | 1,
): number {
  const p2 = p1 + sign * d;
  const pooled = (n1 * p1 + n2 * p2) / (n1 + n2);
  const underNull = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  const alt = Math.sqrt((p1 * (1 - p1)) / n1 + (p2 * (1 - p2)) / n2);
  if (alt === 0) return d > 0 ? 1 : 0;
  return normalCdf((d - zAlpha * underNull) / alt);
}

/**
 * The smallest drop (or rise) of a proportion, in its own units (0.3 is 30 points), detected with
 * the given power; null when even the largest possible change (to 0, or to 1) would not be.
 */
export function minDetectableProportionChange(o: ProportionPower): number | null {
  const power = o.power ?? 0.8;
  if (o.baseRuns <= 0 || o.headRuns <= 0) return null;
  const zAlpha = normalQuantile(1 - o.alpha);
  const sign = o.direction === 'down' ? -1 : 1;
  const room = o.direction === 'down' ? o.rate : 1 - o.rate;
  const at = (d: number) => proportionPower(d, o.rate, o.baseRuns, o.headRuns, zAlpha, sign);
  if (room <= 0 || at(room) < power) return null;
  let lo = 0;
  let hi = room;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (at(mid) >= power) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The smallest change of a mean detected with the given power, from each side's spread. */
export function minDetectableMeanChange(o: {
  baseSd: number;
  headSd: number;
  baseRuns: number;
  headRuns: number;
  alpha: number;
  power?: number;
}): number | null {
  if (o.baseRuns <= 0 || o.headRuns <= 0) return null;
  const z = normalQuantile(1 - o.alpha) + normalQuantile(o.power ?? 0.8);
  return z * Math.sqrt(o.baseSd ** 2 / o.baseRuns + o.headSd ** 2 / o.headRuns);
}

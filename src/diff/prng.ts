/**
 * A small seeded PRNG (mulberry32): the bootstrap must give the same interval on every run and
 * every machine, so that a PR check never flips between two runs of the same reports.
 */
export type Random = () => number;

/** Uniform in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

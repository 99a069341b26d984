/**
 * A fixed-seed generator (mulberry32) for tests that compare two paths over many generated inputs:
 * the same cases on every run, so a failure names an input that fails again.
 */
export function seededRandom(seed: number): { rand: () => number; pick: <T>(xs: readonly T[]) => T } {
  let state = seed;
  const rand = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  return { rand, pick };
}

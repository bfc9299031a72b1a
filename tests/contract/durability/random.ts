// A seeded PRNG for the durability tests: each run prints its seed, and DURABILITY_SEED replays one.

export interface Random {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: small, fast and good enough to spread kill moments and operations. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    seed,
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]
  };
}

/** The seed of this run: DURABILITY_SEED if set, otherwise a fresh one; printed either way. */
export function runSeed(label: string): Random {
  const fromEnv = Number(process.env.DURABILITY_SEED);
  const seed = Number.isInteger(fromEnv) && process.env.DURABILITY_SEED ? fromEnv : Math.floor(Math.random() * 2 ** 31);
  console.log(`${label}: seed ${seed} (replay with DURABILITY_SEED=${seed})`);
  return seededRandom(seed);
}

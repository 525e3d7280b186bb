// Seeded random numbers for the jury statistics: the same seed (a test's id) always gives the
// same resamples, so the same data always gives the same figures.
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

export interface SeededRandom {
  /** A whole number from 0 to `size − 1`, uniformly. */
  index(size: number): number;
  /** A number in [0, 1). */
  unit(): number;
}

/** A 32-bit seed from any text (FNV-1a), e.g. a test id. */
export function seedFromText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

export function seededRandom(seed: number | string): SeededRandom {
  const rng = xoroshiro128plus(typeof seed === "string" ? seedFromText(seed) : seed | 0);
  return {
    index: (size) => uniformInt(rng, 0, size - 1),
    unit: () => uniformFloat64(rng),
  };
}

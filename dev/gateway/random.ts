/**
 * Small deterministic randomness helpers: the gateway must give the same reply
 * for the same (model, prompt, seed) so tests and demos are reproducible.
 */

/** 32-bit hash of any number of string parts (cyrb53 folded to 32 bits). */
export function hashStrings(...parts: readonly string[]): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (const part of parts) {
    // A separator keeps ('ab','c') and ('a','bc') apart.
    const text = `${part}\u0000`;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ code, 2654435761);
      h2 = Math.imul(h2 ^ code, 1597334677);
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

/** Uniform number in [0, 1) derived from the parts. */
export function unitFromStrings(...parts: readonly string[]): number {
  return hashStrings(...parts) / 0x1_0000_0000;
}

export type Random = () => number;

/** mulberry32: a tiny seeded PRNG returning numbers in [0, 1). */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  };
}

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error("pick() from an empty list");
  return item;
}

// Planted run-to-run variance for repeats (issue 35, item 4): a generation request carrying a
// `seed` (a repeated cell's run, convex/lib/repeats.ts) is written by the model at a quality
// drawn around its own, N(quality, repeatVariance²) clamped to 0..1, with answer text seeded by
// the request's seed too. Repeats of one cell then differ the way a real model's runs do, by an
// amount a test can plant and read back; a request without a seed is answered as before.
import type { CatalogModel } from "./catalog";
import { createRandom, hashStrings } from "./random";

/** Quality SD between repeated runs when the settings say nothing (quality is on 0..1). */
export const DEFAULT_REPEAT_VARIANCE = 0.15;

/** A standard normal draw (Box–Muller) from a seeded stream. */
function standardNormal(random: () => number): number {
  const u = Math.max(Number.MIN_VALUE, random());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/**
 * The model and content seed a generation request is answered with: unchanged without a request
 * seed; else the model at its run's quality and a content seed mixing both seeds.
 */
export function repeatedRun(
  model: CatalogModel,
  prompt: string,
  settings: { seed: number; repeatVariance: number },
  requestSeed: number | undefined,
): { model: CatalogModel; seed: number } {
  if (requestSeed === undefined) return { model, seed: settings.seed };
  const seed = hashStrings("repeat", String(settings.seed), String(requestSeed));
  const random = createRandom(hashStrings("repeat-quality", model.id, prompt, String(seed)));
  const quality = Math.min(1, Math.max(0, model.quality + settings.repeatVariance * standardNormal(random)));
  return { model: { ...model, quality }, seed };
}

/** The request's `seed` when it is a whole number (OpenAI-compatible), else undefined. */
export function requestSeedOf(body: Record<string, unknown>): number | undefined {
  return typeof body.seed === "number" && Number.isInteger(body.seed) ? body.seed : undefined;
}

// Sharded counters (Convex's sharded-counter pattern): what every call of a test adds to — its
// progress and cost counters (runShards) and its per-model sums (modelStats) — is split over
// RUN_SHARDS rows per test. A recording adds to the shard of its call only, so two recordings
// of one test rarely write the same row and never conflict through it as a rule; whoever needs
// a total reads the few shards and sums them (runCounters.foldCounters, statistics.mergeModelStats).

/** Shards per test: with 64 calls in flight, two recordings meet on a row about 1 time in 16. */
export const RUN_SHARDS = 16;

/** The shard of a call (its id or key): a stable FNV-1a hash, spread evenly over the shards. */
export function shardOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % RUN_SHARDS;
}

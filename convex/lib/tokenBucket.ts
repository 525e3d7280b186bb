// A token bucket, the rule of Convex's rate-limiter component ("token bucket"): a bucket holds
// up to `capacity` tokens, gains `rate` tokens per `periodMs` continuously, and each counted
// event takes one. A burst up to the capacity goes through; past it, events are admitted at the
// rate. Pure: the caller stores { tokens, updatedAt }.

export type TokenBucketRule = { capacity: number; rate: number; periodMs: number };
export type TokenBucketState = { tokens: number; updatedAt: number };

/** The tokens in the bucket at `now` (a bucket never seen is full). */
export function tokensAt(state: TokenBucketState | null, rule: TokenBucketRule, now: number): number {
  if (state === null) return rule.capacity;
  const gained = (Math.max(0, now - state.updatedAt) * rule.rate) / rule.periodMs;
  return Math.min(rule.capacity, state.tokens + gained);
}

/** How long until one token is there: 0 when an event may go ahead now. */
export function waitForToken(state: TokenBucketState | null, rule: TokenBucketRule, now: number): number {
  const tokens = tokensAt(state, rule, now);
  if (tokens >= 1) return 0;
  return Math.ceil(((1 - tokens) * rule.periodMs) / rule.rate);
}

/** The bucket after one event at `now` (it may go below zero: events past the limit still cost). */
export function takeToken(state: TokenBucketState | null, rule: TokenBucketRule, now: number): TokenBucketState {
  return { tokens: tokensAt(state, rule, now) - 1, updatedAt: now };
}

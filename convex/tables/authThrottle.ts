// The authThrottle tables: declarations only, imported by convex/schema.ts (nothing of the function layer).
import { defineTable } from "convex/server";
import { v } from "convex/values";

export const authThrottleTables = {
  /** Failed attempts per account email since its last success. */
  authBackoff: defineTable({ email: v.string(), failures: v.number(), lastFailureAt: v.number() }).index("by_email", [
    "email",
  ]),
  /** Browsers that have signed in to an account (hash of the browser's random id). */
  authKnownDevices: defineTable({ email: v.string(), deviceHash: v.string(), lastSeenAt: v.number() }).index(
    "by_email_device",
    ["email", "deviceHash"],
  ),
  /** Sign-in attempts per client address (SHA-256 of the address): a token bucket, core/authThrottle CLIENT_ATTEMPTS. */
  authClientBuckets: defineTable({ clientHash: v.string(), tokens: v.number(), updatedAt: v.number() })
    .index("by_client", ["clientHash"])
    // The cleanup cron (convex/cleanup.ts) finds buckets untouched for a day, oldest first.
    .index("by_updated", ["updatedAt"]),
  /** Deployment-wide counts per one-minute window. */
  authRateWindows: defineTable({ name: v.string(), windowStart: v.number(), count: v.number() }).index("by_name", [
    "name",
  ]),
};

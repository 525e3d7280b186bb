// The pages a teammate can be on when they show in presence ("AL · Results"). Shared by the
// presence functions (convex/presence.ts) and the avatars (src/components/presence.tsx).
export const PRESENCE_PAGES = ["monitor", "results", "review", "shared"] as const;
export type PresencePage = (typeof PRESENCE_PAGES)[number];

/** What the avatars say after the initials. */
export const PRESENCE_PAGE_LABELS: Record<PresencePage, string> = {
  monitor: "Monitor",
  results: "Results",
  review: "Review",
  shared: "Shared page",
};

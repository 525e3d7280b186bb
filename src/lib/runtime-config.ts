// Settings a server hands the built app when it serves the page, so one build can talk to any
// backend: the e2e stacks serve one build of the app each on their own ports (dev/static-app.ts).
// Without it the app uses the values Vite built in (VITE_CONVEX_URL).

/** The global the served page sets in an inline script before the app's modules run. */
export const RUNTIME_CONFIG_GLOBAL = "__MODELJURY_CONFIG__";

export interface RuntimeConfig {
  /** The Convex deployment address. */
  convexUrl?: string;
}

/** What the page was served with, or {} (Vite's dev server, a host that injects nothing). */
export function runtimeConfig(): RuntimeConfig {
  if (typeof window === "undefined") return {};
  const value: unknown = (window as unknown as Record<string, unknown>)[RUNTIME_CONFIG_GLOBAL];
  return typeof value === "object" && value !== null ? (value as RuntimeConfig) : {};
}

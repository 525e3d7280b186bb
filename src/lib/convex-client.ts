import { ConvexReactClient } from "convex/react";

import { convexUrl } from "@/lib/session";

export type ConvexClientResult = { client: ConvexReactClient } | { error: string };

let created: ConvexClientResult | undefined;

function createConvexClient(): ConvexClientResult {
  const url = convexUrl();
  if (!url) return { error: "VITE_CONVEX_URL is not set." };
  try {
    // The offline dev backend is not a *.convex.cloud address; let the client accept any URL.
    return { client: new ConvexReactClient(url, { skipConvexDeploymentUrlCheck: true }) };
  } catch (error) {
    return { error: `VITE_CONVEX_URL=${url} is not usable: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The app's one Convex client, created on first use: one connection for the whole visit. */
export function getConvexClient(): ConvexClientResult {
  created ??= createConvexClient();
  return created;
}

import { afterEach, describe, expect, test, vi } from "vitest";

import { RUNTIME_CONFIG_GLOBAL } from "@/lib/runtime-config";
import { authTokenStorageKey, convexUrl, hasStoredSession } from "@/lib/stored-session";

const BUILT_IN = "https://built-in.convex.cloud";
const SERVED = "http://127.0.0.1:41234";

function serveWith(config: unknown): void {
  (window as unknown as Record<string, unknown>)[RUNTIME_CONFIG_GLOBAL] = config;
}

describe("the Convex address the app uses", () => {
  afterEach(() => {
    delete (window as unknown as Record<string, unknown>)[RUNTIME_CONFIG_GLOBAL];
    vi.unstubAllEnvs();
    localStorage.clear();
  });

  test("is the one the page was served with, ahead of the built-in one", () => {
    vi.stubEnv("VITE_CONVEX_URL", BUILT_IN);
    serveWith({ convexUrl: SERVED });
    expect(convexUrl()).toBe(SERVED);
    // The remembered session is looked up under the served backend's key.
    localStorage.setItem(authTokenStorageKey(SERVED), "token");
    expect(hasStoredSession()).toBe(true);
  });

  test("is the built-in one when the page carries none (Vite's dev server, npm start)", () => {
    vi.stubEnv("VITE_CONVEX_URL", BUILT_IN);
    expect(convexUrl()).toBe(BUILT_IN);
    serveWith({ convexUrl: "  " });
    expect(convexUrl()).toBe(BUILT_IN);
    serveWith("not settings");
    expect(convexUrl()).toBe(BUILT_IN);
  });
});

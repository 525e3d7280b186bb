// A stand-in for the Convex client boundary in component tests: `convex/react` and
// `@convex-dev/auth/react`. Components under test run unchanged; only what the server
// would answer is scripted here. Use it with:
//   vi.mock("convex/react", () => import("@/test/convex-mock").then((m) => m.convexReactModule));
//   vi.mock("@convex-dev/auth/react", () => import("@/test/convex-mock").then((m) => m.convexAuthReactModule));
import { getFunctionName, type FunctionReference } from "convex/server";
import { useSyncExternalStore } from "react";
import { vi } from "vitest";

import type { Viewer } from "@/hooks/use-viewer";

interface AuthState {
  isLoading: boolean;
  isAuthenticated: boolean;
}

let auth: AuthState = { isLoading: false, isAuthenticated: false };
let queries = new Map<string, unknown>();
let version = 0;
const listeners = new Set<() => void>();

function changed() {
  version += 1;
  for (const listener of listeners) listener();
}

function useMockVersion(): number {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
  );
}

export const signIn = vi.fn<(provider: string, params?: unknown) => Promise<{ signingIn: boolean }>>();
export const signOut = vi.fn<() => Promise<void>>();

export function resetConvexMock() {
  auth = { isLoading: false, isAuthenticated: false };
  queries = new Map([
    ["users:viewer", null],
    ["users:authOptions", { emailEnabled: false }],
  ]);
  signIn.mockReset();
  signIn.mockResolvedValue({ signingIn: true });
  signOut.mockReset();
  signOut.mockResolvedValue(undefined);
  changed();
}
resetConvexMock();

export function setAuthLoading() {
  auth = { isLoading: true, isAuthenticated: false };
  queries.set("users:viewer", undefined);
  changed();
}

export function setSignedIn(viewer: Viewer) {
  auth = { isLoading: false, isAuthenticated: true };
  queries.set("users:viewer", viewer);
  changed();
}

export function setSignedOut() {
  auth = { isLoading: false, isAuthenticated: false };
  queries.set("users:viewer", null);
  changed();
}

/** What a query answers, by function name ('users:authOptions'); undefined means loading. */
export function setQueryResult(name: string, value: unknown) {
  queries.set(name, value);
  changed();
}

export const convexReactModule = {
  useConvexAuth: (): AuthState => {
    useMockVersion();
    return auth;
  },
  useQuery: (reference: FunctionReference<"query">, args?: unknown): unknown => {
    useMockVersion();
    if (args === "skip") return undefined;
    return queries.get(getFunctionName(reference));
  },
  useMutation: () => vi.fn(),
  useAction: () => vi.fn(),
};

export const convexAuthReactModule = {
  useAuthActions: () => ({ signIn, signOut }),
  useAuthToken: () => (auth.isAuthenticated ? "test-token" : null),
};

export function makeViewer(overrides: Partial<Viewer> = {}): Viewer {
  return {
    _id: "k17abcdefghij0123456789xyzuvw" as Viewer["_id"],
    email: "ada@example.com",
    fullName: null,
    avatarUrl: null,
    isAdmin: false,
    ...overrides,
  };
}

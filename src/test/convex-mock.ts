// The one stand-in for the Convex client boundary in component tests: `convex/react` and
// `@convex-dev/auth/react`. Components under test run unchanged; only what the server would
// answer is scripted here. Use it with:
//   vi.mock("convex/react", () => import("@/test/convex-mock").then((m) => m.convexReactModule));
//   vi.mock("@convex-dev/auth/react", () => import("@/test/convex-mock").then((m) => m.convexAuthReactModule));
// Queries: `setQueryResult(name, value)` (undefined is loading, an Error is thrown as a failed
// query throws), `setPaginated` for paginated ones, `oneShotQuery` for `useConvex().query`.
// Mutations and actions: `callMock(name)` is the mock behind one by name ('shares:enable'),
// resolving null until scripted (`mockCall(name, fn)`).
import { getFunctionName, makeFunctionReference, type FunctionReference } from "convex/server";
import { useSyncExternalStore } from "react";
import { vi, type Mock } from "vitest";

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

/** An error a query answers with: useQuery throws it during render. */
export class QueryFailure extends Error {}

/** Makes the query throw as Convex's useQuery does for a failed query. */
export function setQueryError(name: string, error: Error) {
  setQueryResult(name, error);
}

/** What a paginated query shows: its loaded rows and whether more can be loaded. */
export function setPaginated(
  name: string,
  results: unknown[],
  status: "LoadingFirstPage" | "CanLoadMore" | "Exhausted" = "Exhausted",
) {
  setQueryResult(name, { results, status });
}

type Handler = (args: Record<string, unknown>) => unknown;
type CallMock = Mock<Handler>;

const calls = new Map<string, CallMock>();
export const loadMore = vi.fn<(count: number) => void>();
export const oneShotQuery = vi.fn<(name: string, args: Record<string, unknown>) => Promise<unknown>>();

/** The mock behind a mutation or action by name ('contact:submit'); resolves null until scripted. */
export function callMock(name: string): CallMock {
  let handler = calls.get(name);
  if (!handler) {
    handler = vi.fn<Handler>(async () => null);
    calls.set(name, handler);
  }
  return handler;
}

export function mockCall(name: string, implementation: Handler) {
  callMock(name).mockImplementation(implementation);
}

/** Forgets the scripted mutations, actions, one-shot queries and loadMore calls. */
export function resetCalls() {
  calls.clear();
  loadMore.mockReset();
  oneShotQuery.mockReset();
}

function callable(reference: FunctionReference<"mutation" | "action">) {
  const handler = callMock(getFunctionName(reference));
  return (args?: Record<string, unknown>) => {
    try {
      return Promise.resolve(handler(args ?? {}));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };
}

function useScriptedQuery(reference: FunctionReference<"query">, args?: unknown): unknown {
  useMockVersion();
  if (args === "skip") return undefined;
  const value = queries.get(getFunctionName(reference));
  if (value instanceof Error) throw value;
  return value;
}

export const convexReactModule = {
  useConvexAuth: (): AuthState => {
    useMockVersion();
    return auth;
  },
  useQuery: useScriptedQuery,
  usePaginatedQuery: (reference: FunctionReference<"query">, args: unknown) => {
    const value = useScriptedQuery(reference, args) as { results: unknown[]; status: string } | undefined;
    const state = value ?? { results: [], status: "LoadingFirstPage" };
    return { ...state, isLoading: state.status === "LoadingFirstPage", loadMore };
  },
  useMutation: callable,
  useAction: callable,
  useConvex: () => ({
    query: (reference: FunctionReference<"query">, args: Record<string, unknown>) =>
      oneShotQuery(getFunctionName(reference), args),
  }),
};

/**
 * src/lib/results-views.ts for component tests: each page view is answered as the one-call query
 * it adds up to ('results:get', 'shares:view'), so a test scripts the view the page shows.
 */
export const resultsViewsModule = {
  useResultsView: (testId: string, skip = false) =>
    useScriptedQuery(makeFunctionReference<"query">("results:get"), skip ? "skip" : { testId }),
  useSharedView: (shareId: string) => useScriptedQuery(makeFunctionReference<"query">("shares:view"), { shareId }),
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
    isNew: false,
    ...overrides,
  };
}

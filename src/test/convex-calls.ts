// convex-mock.ts plus scripted mutations and actions, and queries that fail. Use it with:
//   vi.mock("convex/react", () => import("@/test/convex-calls").then((m) => m.convexReactWithCalls));
//   vi.mock("@convex-dev/auth/react", () => import("@/test/convex-mock").then((m) => m.convexAuthReactModule));
// Then `mockCall("templates:saveCopy", fn)` answers that mutation or action, and
// `setQueryResult(name, new QueryFailure("..."))` makes that query throw as a failed one does.
import { getFunctionName, type FunctionReference } from "convex/server";
import { vi } from "vitest";

import { convexReactModule } from "@/test/convex-mock";

type Handler = (args: unknown) => unknown;

const handlers = new Map<string, ReturnType<typeof vi.fn<Handler>>>();

/** An error a query answers with: useQuery throws it during render. */
export class QueryFailure extends Error {}

/** The mock behind a mutation or action by name ('contact:submit'); resolves undefined until scripted. */
export function callMock(name: string): ReturnType<typeof vi.fn<Handler>> {
  let handler = handlers.get(name);
  if (!handler) {
    handler = vi.fn<Handler>(async () => undefined);
    handlers.set(name, handler);
  }
  return handler;
}

export function mockCall(name: string, implementation: Handler) {
  callMock(name).mockImplementation(implementation);
}

export function resetCalls() {
  handlers.clear();
}

function callable(reference: FunctionReference<"mutation" | "action">) {
  const name = getFunctionName(reference);
  return (args: unknown) => Promise.resolve().then(() => callMock(name)(args ?? {}));
}

export const convexReactWithCalls = {
  ...convexReactModule,
  useQuery: (reference: FunctionReference<"query">, args?: unknown): unknown => {
    const value = convexReactModule.useQuery(reference, args);
    if (value instanceof QueryFailure) throw value;
    return value;
  },
  useMutation: callable,
  useAction: callable,
};

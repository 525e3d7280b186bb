import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";

import { resetCalls, resetConvexMock } from "@/test/convex-mock";

// The real backend provider creates a Convex client; every component test gets the one stand-in
// for the Convex client boundary instead (src/test/convex-mock.ts), reset before each test: signed
// out, no query answered but the viewer and the auth options, no mutation scripted. A test file
// that needs another `convex/react` mocks it itself (its vi.mock replaces this one). The pages'
// two-subscription views (src/lib/results-views.ts) answer as the one-call queries they add up to.
vi.mock("@/components/backend-provider", () => import("@/test/backend-mock"));
vi.mock("convex/react", () => import("@/test/convex-mock").then((m) => m.convexReactModule));
vi.mock("@convex-dev/auth/react", () => import("@/test/convex-mock").then((m) => m.convexAuthReactModule));
vi.mock("@/lib/results-views", () => import("@/test/convex-mock").then((m) => m.resultsViewsModule));

beforeEach(() => {
  resetConvexMock();
  resetCalls();
});

// A page's first render loads its lazy chunks, and a whole-app render in jsdom is slow: on a
// 2-core machine shared with other runs a step took over 5 s (setup-page.test.tsx at load
// average 26). findBy/waitFor end as soon as what they wait for shows; this is only the backstop.
configure({ asyncUtilTimeout: 15_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// Browser APIs jsdom lacks that Radix (menus, popovers, selects) and sonner call.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

if (typeof window.matchMedia !== "function") {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

const elementProto = window.HTMLElement.prototype as HTMLElement & Record<string, unknown>;
elementProto.hasPointerCapture ??= () => false;
elementProto.releasePointerCapture ??= () => {};
elementProto.scrollIntoView ??= () => {};
window.scrollTo = (() => {}) as typeof window.scrollTo;

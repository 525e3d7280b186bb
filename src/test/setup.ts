import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// The real backend provider creates a Convex client; tests mock `convex/react` per file instead.
vi.mock("@/components/backend-provider", () => import("@/test/backend-mock"));

// A page's first render loads its lazy chunks; on a busy 2-core runner that can take over the
// default 1 s that findBy/waitFor wait, so a slow machine fails nothing a user would notice.
configure({ asyncUtilTimeout: 5_000 });

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

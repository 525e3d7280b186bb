import { createRouter, type RouterHistory } from "@tanstack/react-router";

import { NotFoundRedirect } from "@/components/not-found-redirect";
import { RouteErrorScreen } from "@/components/route-error-screen";
import { routeTree } from "@/routeTree.gen";

/** The app's router; tests pass a memory history. */
export function createAppRouter(options: { history?: RouterHistory } = {}) {
  return createRouter({
    routeTree,
    history: options.history,
    // Unknown paths are handled once, at the root, by the rule of spec part 2 §2.
    notFoundMode: "root",
    defaultNotFoundComponent: NotFoundRedirect,
    defaultErrorComponent: RouteErrorScreen,
    defaultPreload: "intent",
    scrollRestoration: true,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}

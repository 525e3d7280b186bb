import { createMemoryHistory, RouterProvider } from "@tanstack/react-router";
import { render } from "@testing-library/react";

import { ThemeProvider } from "@/components/theme-provider";
import { createAppRouter } from "@/router";

/** Renders the whole app (real routes and screens) at `path`, as main.tsx does minus Convex. */
export function renderApp(path: string) {
  const history = createMemoryHistory({ initialEntries: [path] });
  const router = createAppRouter({ history });
  const view = render(
    <ThemeProvider>
      <RouterProvider router={router} />
    </ThemeProvider>,
  );
  return { ...view, router, history };
}

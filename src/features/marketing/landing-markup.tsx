import { renderToStaticMarkup } from "react-dom/server";

import { LandingPage } from "@/features/marketing/landing-page";
import { StaticMarkupContext } from "@/features/marketing/static-markup";

/**
 * The landing page as HTML, rendered by vite.config.ts into landing.html when the site is built
 * (and on each request in development). The page ships without React: src/landing-main.ts wires
 * the few parts that depend on the visitor.
 */
export function renderLandingMarkup(): string {
  return renderToStaticMarkup(
    <StaticMarkupContext.Provider value={true}>
      <LandingPage />
    </StaticMarkupContext.Provider>,
  );
}

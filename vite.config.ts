import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import path from "node:path";
import { defineConfig, runnerImport, type Connect, type Plugin, type ViteDevServer } from "vite";

// The landing page is its own small entry (landing.html): a direct load of "/" gets it; every
// other address gets the app (index.html), which also renders "/" when navigated to in-app.
// A production host needs the same rule: "/" → landing.html, anything else → index.html.
const serveLandingAtRoot: Connect.NextHandleFunction = (request, _response, next) => {
  const [pathname, query] = (request.url ?? "/").split("?");
  if (pathname === "/" || pathname === "/index.html") request.url = `/landing.html${query ? `?${query}` : ""}`;
  next();
};

const LANDING_MARKUP_MODULE = "/src/features/marketing/landing-markup.tsx";
const ALIASES = { "@": path.resolve(import.meta.dirname, "src") };

/** What src/features/marketing/landing-markup.tsx exports. */
type LandingMarkupModule = { renderLandingMarkup: () => string };

/** The landing page's HTML, rendered with the dev server's module graph or, when building, a one-off runner. */
async function renderLandingMarkup(server: ViteDevServer | undefined): Promise<string> {
  const module = server
    ? ((await server.ssrLoadModule(LANDING_MARKUP_MODULE)) as LandingMarkupModule)
    : (
        await runnerImport<LandingMarkupModule>(LANDING_MARKUP_MODULE, {
          configFile: false,
          root: import.meta.dirname,
          resolve: { alias: ALIASES },
          logLevel: "error",
        })
      ).module;
  return module.renderLandingMarkup();
}

function landingEntry(): Plugin {
  return {
    name: "modeljury-landing-entry",
    configureServer: (server) => void server.middlewares.use(serveLandingAtRoot),
    configurePreviewServer: (server) => void server.middlewares.use(serveLandingAtRoot),
    // The landing page ships as HTML plus a small script, without React (src/landing-main.ts).
    transformIndexHtml: {
      order: "pre",
      handler: async (html, context) => {
        if (!context.filename.endsWith("landing.html")) return html;
        const markup = await renderLandingMarkup(context.server);
        return html.replace('<div id="root"></div>', `<div id="root">${markup}</div>`);
      },
    },
  };
}

export default defineConfig({
  plugins: [
    landingEntry(),
    tanstackRouter({ target: "react", autoCodeSplitting: true, routeFileIgnorePattern: "\\.test\\.tsx?$" }),
    react(),
    tailwindcss(),
  ],
  resolve: { alias: ALIASES },
  // Pre-bundled at start: a dependency the dev server discovers only when a page first imports it
  // is bundled again mid-session, and a page still holding the old bundles gets a second React
  // ("Invalid hook call"). zod/mini is imported by every route's search schema (src/lib/search-params.ts).
  optimizeDeps: { include: ["zod/mini"] },
  build: {
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: {
        app: path.resolve(import.meta.dirname, "index.html"),
        landing: path.resolve(import.meta.dirname, "landing.html"),
      },
      output: {
        // Issue 7: the landing page's JavaScript is at most 100 KB gzipped (bench/bundle-size.ts).
        // Fewer, larger chunks compress better than the default split's many small ones.
        codeSplitting: {
          groups: [
            // The React-free pieces the landing page's script uses, so it never loads a chunk
            // that imports React.
            {
              name: "plain",
              test: /src[\\/](lib[\\/](theme|stored-session|runtime-config|navigation)\.ts|features[\\/]marketing[\\/]static-markup-attributes\.ts)/,
              priority: 4,
            },
            // React itself, shared by the landing entry and the app.
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
            // The light pieces both entries use, so the app never loads the landing chunk for them.
            {
              name: "base",
              test: /src[\\/](components[\\/](theme-provider|logo|inline-icon|marketing-link|ui[\\/]button-variants)|lib[\\/](theme|session|navigation|paths))|node_modules[\\/](clsx|class-variance-authority)[\\/]/,
              priority: 2,
            },
            // The landing page with the frame of the public pages. Their dependencies join them,
            // so these modules must not share any with the signed-in screens (except the above).
            { name: "landing", test: /src[\\/]features[\\/]marketing[\\/](landing-page|marketing-)/, priority: 1 },
          ],
        },
      },
    },
  },
});

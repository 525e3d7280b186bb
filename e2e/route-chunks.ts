/**
 * A journey served by a Vite dev server (`useE2E({ viteDevServer: true })`) has each route's
 * component compiled the first time a page visits it: the results route, the app's largest, was
 * not shown within 15 s of its first visit beside a busy loop (refund.e2e in loaded round 2, when
 * every journey ran on a dev server). So the harness's warm-up loads every route's lazy component
 * chunk, and what it imports, before the first test's clock starts (25 chunks, 6.6 s beside a busy
 * loop). The run's build, which the other journeys use, has nothing to compile.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import type { ViteDevServer } from "vite";

const ROUTES_DIR = fileURLToPath(new URL("../src/routes", import.meta.url));

/** The URLs of the lazy chunks the router plugin splits out of the route files (`?tsr-split=…`). */
async function routeChunkUrls(vite: ViteDevServer): Promise<string[]> {
  const routeFiles = readdirSync(ROUTES_DIR, { recursive: true, encoding: "utf8" }).filter(
    (file) => file.endsWith(".tsx") && !/\.test\.tsx$/.test(file),
  );
  const urls = new Set<string>();
  for (const file of routeFiles) {
    const route = await vite.transformRequest(`/src/routes/${file.split("\\").join("/")}`);
    for (const match of route?.code.matchAll(/import\("([^"]+\?tsr-split=[^"]+)"\)/g) ?? []) urls.add(match[1]!);
  }
  return [...urls];
}

/** Imports every route's component chunk in `page` (an app page of `vite`), and all it imports. */
export async function loadRouteChunks(page: Page, vite: ViteDevServer): Promise<number> {
  const urls = await routeChunkUrls(vite);
  // A string, not a function: Vitest would rewrite a function's `import()` for Node.
  await page.evaluate(`Promise.all(${JSON.stringify(urls)}.map((url) => import(url))).then(() => undefined)`);
  return urls.length;
}

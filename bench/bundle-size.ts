/**
 * The JavaScript a visitor downloads for the landing page (/) and for the dashboard home
 * (/dashboard), gzipped, against the budgets: 60 KB and 215 KB.
 *
 *   npx tsx bench/bundle-size.ts              builds with vite into bench/.out/bundle, then measures
 *   npx tsx bench/bundle-size.ts --dist DIR   measures an existing build (made with --manifest)
 *
 * A route's JavaScript is its HTML entry's chunk plus the route's code-split chunks (TanStack's
 * autoCodeSplitting: `src/routes/…tsx?tsr-split=…`), each with every chunk it imports statically,
 * counted once. Dynamic imports inside those chunks are not counted: they load later, on demand;
 * except `lazyModules`, which a page loads before it can show (the Convex client and Convex Auth,
 * which the root mounts only for pages that talk to the backend).
 * Sizes are gzip at zlib's default level, as a web server typically serves them. Exits 1 when a
 * route is over its target, or loads what its `keepOut` names (other pages' code: a page such as
 * the review page, with its drag-and-drop library, must stay in its own code-split chunk).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "vite";

const ROOT = path.resolve(import.meta.dirname, "..");
const KB = 1024;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface RouteTarget {
  label: string;
  path: string;
  /** The HTML entry a direct load of the path gets (vite.config.ts serves landing.html at "/"). */
  entry: string;
  /** Route files whose split chunks load for this page (layouts first). */
  routeFiles: string[];
  /** Dynamically imported modules the page needs before it shows. */
  lazyModules?: string[];
  targetKb: number;
  /**
   * What must stay out of this page's first load: other pages' feature folders (their routes are
   * code-split; only their search parsers, `search.ts`, belong to the router) and the libraries
   * only those pages use. A module found here fails the run like a size over its target.
   */
  keepOut?: { features: string[]; packages: string[] };
}

const ROUTES: RouteTarget[] = [
  { label: "landing", path: "/", entry: "landing.html", routeFiles: [], targetKb: 60 },
  {
    label: "dashboard",
    path: "/dashboard",
    entry: "index.html",
    routeFiles: ["src/routes/_authenticated.tsx", "src/routes/_authenticated/dashboard/index.tsx"],
    lazyModules: ["src/components/backend-provider.tsx"],
    // 215, not 200: route search params go through zod/mini schemas (docs/ARCHITECTURE.md §2,
    // issue 21), and validateSearch runs in the entry chunk every page loads. Measured with this
    // script on 2026-11-26: 199.2 KB before, 214.3 KB after (+15.1 KB gzipped, zod/mini's core).
    // So zod is no longer in keepOut's packages: the router's search parsers need it.
    targetKb: 215,
    keepOut: {
      features: [
        "account",
        "admin",
        "billing",
        "contact",
        "history",
        "monitor",
        "results",
        "review",
        "setup",
        "shared",
        "templates",
      ],
      packages: ["@dnd-kit", "recharts", "react-markdown", "papaparse", "sonner", "react-hook-form"],
    },
  },
];

function parseArgs(argv: string[]): { dist: string | null } {
  const index = argv.indexOf("--dist");
  if (index === -1) return { dist: null };
  const value = argv[index + 1];
  if (!value) throw new Error("--dist needs a directory");
  return { dist: path.resolve(value) };
}

async function buildApp(outDir: string): Promise<void> {
  await build({
    root: ROOT,
    configFile: path.join(ROOT, "vite.config.ts"),
    logLevel: "warn",
    // Hidden source maps say which app modules each page loads (see featureModules).
    build: { outDir, emptyOutDir: true, manifest: true, sourcemap: "hidden" },
  });
}

function readManifest(dist: string): Manifest {
  const file = path.join(dist, ".vite", "manifest.json");
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Manifest;
  } catch {
    throw new Error(`No manifest at ${file}: build with \`vite build --manifest\` or run without --dist.`);
  }
}

/** The manifest keys of a chunk and everything it imports statically. */
function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...keys];
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`Manifest has no chunk ${key}`);
    seen.add(key);
    stack.push(...(chunk.imports ?? []));
  }
  return seen;
}

function gzipBytes(dist: string, file: string): number {
  return gzipSync(readFileSync(path.join(dist, file))).length;
}

function measure(dist: string, manifest: Manifest, route: RouteTarget) {
  const entries = Object.entries(manifest).filter(([key, chunk]) => chunk.isEntry && key === route.entry);
  if (entries.length !== 1) throw new Error(`Expected the entry chunk ${route.entry}, found ${entries.length}`);
  const splitChunks = Object.keys(manifest).filter((key) =>
    route.routeFiles.some((file) => key.startsWith(`${file}?tsr-split`)),
  );
  const missing = route.routeFiles.filter((file) => !splitChunks.some((key) => key.startsWith(file)));
  if (missing.length > 0) throw new Error(`No code-split chunk for ${missing.join(", ")} (is autoCodeSplitting on?)`);
  const shared = staticClosure(manifest, [entries[0]![0]]);
  const closure = staticClosure(manifest, [entries[0]![0], ...splitChunks, ...(route.lazyModules ?? [])]);
  const files = [...closure].map((key) => manifest[key]!.file).filter((file) => file.endsWith(".js"));
  const sizes = files.map((file) => ({ file, gzip: gzipBytes(dist, file) })).sort((a, b) => b.gzip - a.gzip);
  const sharedFiles = new Set([...shared].map((key) => manifest[key]!.file));
  const css = new Set([...closure].flatMap((key) => manifest[key]!.css ?? []));
  const sources = sourceModules(dist, files);
  const features = featureModules(sources);
  return {
    featureModules: features,
    keptOut: keptOutFound(sources, features, route.keepOut),
    totalGzip: sizes.reduce((sum, entry) => sum + entry.gzip, 0),
    /** What this route adds to the entry every page loads (React, router, Convex client, …). */
    ownGzip: sizes.filter((entry) => !sharedFiles.has(entry.file)).reduce((sum, entry) => sum + entry.gzip, 0),
    cssGzip: [...css].reduce((sum, file) => sum + gzipBytes(dist, file), 0),
    sizes,
  };
}

/** The modules inside these chunks, from their source maps (none without maps). */
function sourceModules(dist: string, files: string[]): string[] {
  const found = new Set<string>();
  for (const file of files) {
    let map: { sources?: string[] };
    try {
      map = JSON.parse(readFileSync(path.join(dist, `${file}.map`), "utf8")) as { sources?: string[] };
    } catch {
      continue;
    }
    for (const source of map.sources ?? []) found.add(source);
  }
  return [...found].sort();
}

/** The src/features modules among them ('features/dashboard/stat-cards.tsx'). */
function featureModules(sources: string[]): string[] {
  const found = new Set<string>();
  for (const source of sources) {
    const match = /src\/(features\/[^?]+)/.exec(source);
    if (match && !source.includes("node_modules")) found.add(match[1]!);
  }
  return [...found].sort();
}

/** What of `keepOut` the page loads: other pages' feature modules and their packages. */
function keptOutFound(sources: string[], features: string[], keepOut: RouteTarget["keepOut"]): string[] {
  if (!keepOut) return [];
  const fromFeatures = features.filter((module) => {
    const [, area, ...rest] = module.split("/");
    return keepOut.features.includes(area!) && rest.join("/") !== "search.ts";
  });
  const packages = new Set<string>();
  for (const source of sources) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source);
    const name = match?.[1];
    if (name && keepOut.packages.some((kept) => name === kept || name.startsWith(`${kept}/`))) packages.add(name);
  }
  return [...fromFeatures, ...[...packages].sort()];
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

async function main() {
  const { dist: given } = parseArgs(process.argv.slice(2));
  const dist = given ?? path.join(ROOT, "bench", ".out", "bundle");
  if (!given) await buildApp(dist);
  const manifest = readManifest(dist);
  let over = false;
  for (const route of ROUTES) {
    const { totalGzip, ownGzip, cssGzip, sizes, featureModules: modules, keptOut } = measure(dist, manifest, route);
    const ok = totalGzip <= route.targetKb * KB;
    over ||= !ok || keptOut.length > 0;
    console.log(
      `${route.label.padEnd(10)} ${route.path.padEnd(11)} JS ${kb(totalGzip).padStart(9)} gzip  target ${route.targetKb} KB  ${ok ? "ok" : "OVER"}` +
        `   (ratio ${(totalGzip / (route.targetKb * KB)).toFixed(2)}; ${kb(ownGzip)} of it beyond the shared entry; CSS ${kb(cssGzip)} not counted)`,
    );
    for (const { file, gzip } of sizes.slice(0, process.env.BUNDLE_ALL ? undefined : 8))
      console.log(`    ${kb(gzip).padStart(9)}  ${file}`);
    if (sizes.length > 8) console.log(`    … ${sizes.length - 8} more chunks`);
    const areas = [...new Set(modules.map((module) => module.split("/")[1]))];
    if (areas.length > 0)
      console.log(
        `    feature code loaded: ${areas
          .map(
            (area) =>
              `${area} (${modules
                .filter((m) => m.split("/")[1] === area)
                .map((m) => m.split("/").slice(2).join("/"))
                .join(", ")})`,
          )
          .join("; ")}`,
      );
    if (keptOut.length > 0)
      console.log(`    LOADED, should load later (other pages' code, see keepOut): ${keptOut.join(", ")}`);
  }
  process.exitCode = over ? 1 : 0;
}

await main();

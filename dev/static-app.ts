/**
 * Serves a built app (`vite build` output) the way the production host does (vite.config.ts):
 * "/" gets the landing page, a file that exists is sent as is, any other address gets the app's
 * index.html. Every HTML page carries the runtime settings (src/lib/runtime-config.ts) in an
 * inline script, so one build serves any backend. The browser journeys use it instead of a
 * Vite dev server: nothing to compile per stack.
 */

import { readFile, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { RUNTIME_CONFIG_GLOBAL, type RuntimeConfig } from "../src/lib/runtime-config";

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

export interface StaticApp {
  url: string;
  close(): Promise<void>;
}

/** The page's HTML with the settings set before any of its scripts run. */
function withRuntimeConfig(html: string, config: RuntimeConfig): string {
  // "<" escaped: a value can never close the script element.
  const json = JSON.stringify(config).replace(/</g, "\\u003c");
  return html.replace("<head>", `<head>\n    <script>window.${RUNTIME_CONFIG_GLOBAL} = ${json};</script>`);
}

/** Starts serving `root` on host:port (0 picks a free one). */
export async function startStaticApp(options: {
  root: string;
  port: number;
  host: string;
  config: RuntimeConfig;
}): Promise<StaticApp> {
  const root = path.resolve(options.root);
  const pages = new Map<string, string>();
  for (const page of ["index.html", "landing.html"]) {
    pages.set(page, withRuntimeConfig(await readFile(path.join(root, page), "utf8"), options.config));
  }

  const server: Server = createServer((request, response) => {
    const send = (status: number, type: string, body: string | Buffer) => {
      response.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store" });
      response.end(request.method === "HEAD" ? undefined : body);
    };
    if (request.method !== "GET" && request.method !== "HEAD") return send(405, CONTENT_TYPES[".txt"], "");
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? "/", "http://app").pathname);
    } catch {
      return send(400, CONTENT_TYPES[".txt"], "Bad address");
    }
    if (pathname === "/" || pathname === "/index.html" || pathname === "/landing.html")
      return send(200, CONTENT_TYPES[".html"], pages.get("landing.html")!);
    const file = path.join(root, pathname);
    void (async () => {
      const found = file.startsWith(root + path.sep) && (await stat(file).catch(() => null))?.isFile();
      if (found) {
        const type = CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream";
        return send(200, type, await readFile(file));
      }
      // A missing script or stylesheet is an error, not the app's page.
      if (pathname.startsWith("/assets/")) return send(404, CONTENT_TYPES[".txt"], "Not found");
      send(200, CONTENT_TYPES[".html"], pages.get("index.html")!);
    })().catch((error: unknown) => send(500, CONTENT_TYPES[".txt"], String(error)));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `http://${options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

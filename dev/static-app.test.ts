import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startStaticApp, type StaticApp } from "./static-app";

const PAGE = (entry: string) =>
  `<!doctype html>\n<html>\n  <head>\n    <title>ModelJury</title>\n  </head>\n  <body>${entry}</body>\n</html>\n`;

describe("the built app's static server", () => {
  let root: string;
  let app: StaticApp;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "static-app-"));
    mkdirSync(path.join(root, "assets"));
    writeFileSync(path.join(root, "index.html"), PAGE("app"));
    writeFileSync(path.join(root, "landing.html"), PAGE("landing"));
    writeFileSync(path.join(root, "assets", "app-1.js"), "console.log(1);");
    writeFileSync(path.join(tmpdir(), "static-app-outside.txt"), "secret");
    app = await startStaticApp({
      root,
      port: 0,
      host: "127.0.0.1",
      config: { convexUrl: "http://127.0.0.1:4321</script>" },
    });
  });

  afterAll(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = async (address: string) => {
    const response = await fetch(`${app.url}${address}`);
    return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
  };

  test('"/" is the landing page, any other address the app, both with the backend address set before the scripts', async () => {
    const landing = await get("/");
    expect(landing.body).toContain("<body>landing</body>");
    const app = await get("/dashboard/results?testId=1");
    expect(app.status).toBe(200);
    expect(app.type).toMatch(/^text\/html/);
    expect(app.body).toContain("<body>app</body>");
    const script =
      '<script>window.__MODELJURY_CONFIG__ = {"convexUrl":"http://127.0.0.1:4321\\u003c/script>"};</script>';
    for (const page of [landing, app]) expect(page.body.indexOf(script)).toBeLessThan(page.body.indexOf("<title>"));
    expect(app.body.indexOf(script)).toBeGreaterThan(0);
  });

  test("files are sent as they are; a missing asset or a path outside the build is not the app", async () => {
    expect(await get("/assets/app-1.js")).toEqual({
      status: 200,
      type: "text/javascript; charset=utf-8",
      body: "console.log(1);",
    });
    expect((await get("/assets/app-2.js")).status).toBe(404);
    const outside = await get("/..%2Fstatic-app-outside.txt");
    expect(outside.body).not.toContain("secret");
  });
});

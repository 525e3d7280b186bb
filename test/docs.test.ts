import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

// The docs are a map: every file or folder they name in backticks exists. A path is read from the
// repository's root, or from the folder the docs abbreviate (convex/, src/, dev/, docs/), as in
// `core/jury/poll.ts` for convex/core/jury/poll.ts.
const ROOTS = ["", "convex", "src", "dev", "docs"];
const DOCS = readdirSync("docs").filter((name) => name.endsWith(".md"));

/** `a/b.ts`, `lib/stats/`, `core/run/` …: a name with a slash and a file extension or a final slash. */
function pathsIn(text: string): string[] {
  const names = [
    ...text.matchAll(/`([A-Za-z0-9_.@-]+(?:\/[A-Za-z0-9_.@-]+)*\/(?:[A-Za-z0-9_.-]+\.(?:tsx?|mjs|md|json))?)`/g),
  ];
  return [...new Set(names.map((match) => match[1]!))];
}

function exists(name: string): boolean {
  return ROOTS.some((root) => existsSync(path.join(root, name)));
}

describe("docs", () => {
  test("finds the docs and the paths they name", () => {
    expect(DOCS).toContain("ARCHITECTURE.md");
    expect(pathsIn(readFileSync("docs/ARCHITECTURE.md", "utf8")).length).toBeGreaterThan(10);
  });

  test.each(DOCS)("every path docs/%s names exists", (doc) => {
    const missing = pathsIn(readFileSync(path.join("docs", doc), "utf8")).filter((name) => !exists(name));
    expect(missing).toEqual([]);
  });
});

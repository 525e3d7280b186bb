// Features keep to themselves (docs/ARCHITECTURE.md §2): a folder in src/features is one screen
// area. It imports its own files, the app-wide pieces (components/, lib/, hooks/) and convex/'s
// lib/ and generated code; another feature only where FEATURE_IMPORTS below allows it, with the
// reason. App-wide code (components/, lib/, hooks/) imports no feature: it sits below them.
// Routes and the entry files (main.tsx, router.tsx, landing-main.ts) wire screens together and
// may import any feature. Tests and their fixtures (src/test/) are not product code: a test may
// render screens of several features together.
import { describe, expect, test } from "vitest";

const sources = import.meta.glob<string>(
  ["./**/*.{ts,tsx}", "!./**/*.test.{ts,tsx}", "!./test/**", "!./routeTree.gen.ts"],
  { query: "?raw", import: "default", eager: true },
);

/**
 * Which feature may import which, each with why: the rule, not an inventory (a pair may be allowed
 * before its first import). An import between two features not listed here fails the test. The
 * pairs form no cycle: a feature listed as imported never imports back. What several features
 * show (a test's results views, notices, checkout) sits below them in components/ and lib/.
 */
const FEATURE_IMPORTS: Record<string, Record<string, string>> = {
  account: {
    auth: "Change Password checks a new password with the sign-up form's rules and checker (auth/password-strength)",
  },
  billing: { teams: "Billing shows a team's spend by member with the team page's own section (teams/team-spend)" },
  contact: { marketing: "the contact page is a public page in the marketing frame (marketing/marketing-layout)" },
  dashboard: {
    setup: "the dashboard's saved items edit with the setup page's item dialogs and kinds (setup/item-editor-dialog)",
  },
  history: {
    dashboard: "a draft in the history has the dashboard's draft actions (dashboard/draft-actions)",
    rejudge: "a re-judging's row names the test it judged again, as its results page does (rejudge/rejudge-links)",
  },
  monitor: {
    dashboard: "a draft on the monitor has the dashboard's draft actions (dashboard/draft-actions)",
    rejudge:
      "a finished re-judging's monitor offers Compare the two juries, as its results page does (rejudge/rejudge-links)",
  },
  rejudge: {
    setup:
      "Judge again picks judges and the evaluation with the setup page's sections and catalog (setup/*-section, use-catalog)",
  },
  "jury-advice": {
    rejudge: "the advised jury opens Judge Again with its judges selected (rejudge/judge-again-dialog)",
  },
  results: {
    rejudge: "the results page offers Judge again and links the tests judged again (rejudge/)",
    "jury-advice": "the results page shows the jury advice of a finished test (jury-advice/)",
  },
  setup: { templates: "the template library filters by category with the templates page's filter" },
  shared: { marketing: "the shared page is public, under the marketing header" },
  teams: {
    auth: "team forms and the invitation page use the auth forms' frame and email field (auth/auth-layout, schemas)",
  },
};

/**
 * Import statements between features, at the most (a module importing several names of another
 * feature's module counts once). Past it, move what they share below the features.
 */
const MAX_CROSS_FEATURE_IMPORTS = 20;

const AREAS_BELOW_FEATURES = ["components/", "lib/", "hooks/"];

/** "./features/x/y.tsx" → "features/x/y"; "@/…" and relative specifiers resolved likewise. */
function resolve(from: string, specifier: string): string {
  const parts = specifier.startsWith("@/") ? [] : from.replace(/^\.\//, "").split("/").slice(0, -1);
  for (const segment of specifier.replace(/^@\//, "").split("/")) {
    if (segment === "..") parts.pop();
    else if (segment !== ".") parts.push(segment);
  }
  return parts.join("/").replace(/\.tsx?$/, "");
}

function importsOf(file: string, source: string): string[] {
  const specifiers = [
    ...source.matchAll(/(?:^|[\s;])(?:import|export)\b[^"';]*?\bfrom\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/gm),
  ].map((match) => match[1] ?? match[2]!);
  return [
    ...new Set(
      specifiers
        .filter((specifier) => specifier.startsWith("@/") || specifier.startsWith("."))
        .map((s) => resolve(file, s)),
    ),
  ];
}

/** module → the src/ modules it imports. */
const graph = new Map(
  Object.entries(sources).map(([file, source]) => [
    file.replace(/^\.\//, "").replace(/\.tsx?$/, ""),
    importsOf(file, source),
  ]),
);

function featureOf(module: string): string | null {
  const match = /^features\/([^/]+)\//.exec(module);
  return match ? match[1]! : null;
}

/** "from → to: module → target" for every import of one feature by another. */
function crossFeatureImports(): { from: string; to: string; line: string }[] {
  return [...graph].flatMap(([module, targets]) => {
    const from = featureOf(module);
    if (!from) return [];
    return targets.flatMap((target) => {
      const to = featureOf(target);
      return to && to !== from ? [{ from, to, line: `${module} → ${target}` }] : [];
    });
  });
}

describe("src/ import graph", () => {
  test("reads the modules and their imports", () => {
    expect(graph.get("features/results/results-page")).toContain("features/results/team-review");
    expect(graph.get("components/layout/nav-bar")).toContain("components/layout/space-switcher");
    expect(graph.get("features/shared/shared-page")).toContain("components/results/rankings-section");
  });

  test("app-wide code (components/, lib/, hooks/) imports no feature", () => {
    const upward = [...graph]
      .filter(([module]) => AREAS_BELOW_FEATURES.some((area) => module.startsWith(area)))
      .flatMap(([module, targets]) =>
        targets.filter((target) => featureOf(target) !== null).map((target) => `${module} → ${target}`),
      );
    expect(upward).toEqual([]);
  });

  test("a feature imports another feature only where FEATURE_IMPORTS allows it", () => {
    const unlisted = crossFeatureImports()
      .filter(({ from, to }) => FEATURE_IMPORTS[from]?.[to] === undefined)
      .map(({ line }) => line);
    expect(unlisted).toEqual([]);
  });

  test(`features import each other in at most ${MAX_CROSS_FEATURE_IMPORTS} statements`, () => {
    const lines = crossFeatureImports().map(({ line }) => line);
    expect(lines.length, lines.join("\n")).toBeLessThanOrEqual(MAX_CROSS_FEATURE_IMPORTS);
  });

  test("the allowed pairs form no cycle", () => {
    const cycles: string[] = [];
    const visit = (feature: string, path: string[]) => {
      for (const next of Object.keys(FEATURE_IMPORTS[feature] ?? {})) {
        if (path.includes(next)) cycles.push([...path.slice(path.indexOf(next)), next].join(" → "));
        else visit(next, [...path, next]);
      }
    };
    for (const feature of Object.keys(FEATURE_IMPORTS)) visit(feature, [feature]);
    expect(cycles).toEqual([]);
  });
});

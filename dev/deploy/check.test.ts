// @vitest-environment node
// The push-time checks of `npm run check:deploy` (check.ts): the project's convex/ passes, and a
// functions folder with what a deployment refuses (fixture/broken/) fails with each push error.
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { checkDeploy } from "./check";

const BROKEN = fileURLToPath(new URL("./fixture/broken", import.meta.url));
const PROJECT = fileURLToPath(new URL("../../convex", import.meta.url));

it("passes the project's functions: bundled, evaluated, schema, auth config and code size", async () => {
  const result = await checkDeploy(PROJECT);
  expect(result.errors).toEqual([]);
  expect(result.passed).toEqual([
    expect.stringMatching(/^bundled \d+ modules for the default \(Convex\) runtime$/),
    "bundled 0 modules for the Node.js runtime",
    expect.stringMatching(/^code size \d+\.\d\d MiB of 32 MiB, \d+ modules$/),
    expect.stringMatching(/^evaluated \d+ modules in their runtimes: \d+ functions$/),
    expect.stringMatching(/^schema: \d+ tables, \d+ indexes$/),
    "auth.config.ts: providers valid",
  ]);
}, 180_000);

it("fails what a push refuses: Node globals and missing variables at load, a query in a Node module, a cron of a query, bad indexes, an unset issuer", async () => {
  const result = await checkDeploy(BROKEN);
  expect(result.errors).toEqual([
    {
      step: "evaluate modules",
      messages: [
        "Failed to analyze needsEnv.js: Error: FIXTURE_SECRET is not set",
        "Failed to analyze nodeGlobals.js: ReferenceError: Buffer is not defined",
        'nodeOnly:inNode is a query in a "use node" module: only actions can run in the Node.js runtime.',
        'Cron job "list things" runs things:list, which is a query: crons run mutations and actions.',
      ],
    },
    {
      step: "schema",
      messages: [
        'In table "things" cannot name an index "by_id" because the name is reserved. Indexes may not start with an underscore or be named "by_id" or "by_creation_time".',
        "`_creationTime` is automatically added to the end of each index. It should not be added explicitly in the index definition. See https://docs.convex.dev/using/indexes for more details.",
        "Indexes may have up to 16 fields.",
        'In table "things" index "by_a_again" and index "by_a" have the same fields. Indexes must be unique within a table.',
      ],
    },
    { step: "auth config", messages: ["auth.config.ts providers[0]: domain must be a URL, not undefined."] },
  ]);
}, 180_000);

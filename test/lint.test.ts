import { ESLint } from "eslint";
import { describe, expect, test } from "vitest";

// The project's own lint rules, run on sources that break them (linted as if they were
// convex/profile.ts, an existing module, so the TypeScript project service knows the path).
const eslint = new ESLint({ cwd: process.cwd() });

async function lint(code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe("lint", () => {
  test("a domain module that builds a public function from _generated/server is rejected", async () => {
    const messages = await lint(
      'import { query } from "./_generated/server";\nexport const leak = query({ args: {}, handler: async () => null });\n',
      "convex/profile.ts",
    );
    expect(messages.join("\n")).toMatch(/no-restricted-imports: .*access builders in convex\/functions.ts/);
  });

  test("the same function built with the access builders passes", async () => {
    const messages = await lint(
      'import { userQuery } from "./functions";\nexport const mine = userQuery({ args: {}, handler: async () => null });\n',
      "convex/profile.ts",
    );
    expect(messages).toEqual([]);
  });
});

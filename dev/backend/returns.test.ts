// A query's return value and a written document are checked by dev/backend/returns.ts before
// convex-test (which throws an error per union member tried): the same values pass and the same
// messages fail as with convex-test's own check, which is the reference here.
import { convexTest } from "convex-test";
import { defineSchema, defineTable, makeFunctionReference, queryGeneric } from "convex/server";
import type { GenericMutationCtx, GenericDataModel } from "convex/server";
import type { GenericValidator, Value } from "convex/values";
import { v } from "convex/values";
import { describe, expect, test } from "vitest";
import { LocalDatabase, captureRootDatabase } from "./database";
import { forConvexTest } from "./modules";

const page = v.union(v.literal("monitor"), v.literal("results"), v.literal("review"), v.literal("shared"));
const row = v.object({ id: v.id("presence"), label: v.string(), page: v.union(page, v.null()) });

/** [name, returns validator, value the query returns] */
const cases: [string, GenericValidator, unknown][] = [
  ["the last literal of a union", page, "shared"],
  ["no literal of the union", page, "elsewhere"],
  [
    "rows whose union field takes its later members",
    v.array(row),
    [
      { id: "12presence", label: "AB", page: "shared" },
      { id: "13presence", label: "CD", page: null },
    ],
  ],
  [
    "a row with a bad union member deep in a list",
    v.object({ count: v.number(), viewers: v.array(row) }),
    {
      count: 1,
      viewers: [{ id: "12presence", label: "AB", page: "lobby" }],
    },
  ],
  ["an id of another table", v.array(row), [{ id: "12users", label: "AB", page: null }]],
  ["a missing required field", row, { id: "12presence", page: null }],
  ["a missing optional field", v.object({ a: v.optional(v.number()) }), {}],
  ["an optional field set to undefined", v.object({ a: v.optional(v.number()) }), { a: undefined }],
  ["an unexpected field", v.object({ a: v.number() }), { a: 1, b: 2 }],
  ["an unexpected field set to undefined", v.object({ a: v.number() }), { a: 1, b: undefined }],
  ["undefined for null", v.null(), undefined],
  ["a number for a string", v.string(), 3],
  ["a string for a number", v.number(), "3"],
  ["a bigint", v.int64(), 3n],
  ["a number for a bigint", v.int64(), 3],
  ["bytes", v.bytes(), new ArrayBuffer(4)],
  ["a boolean", v.boolean(), false],
  ["a number literal", v.literal(3), 4],
  ["a union of objects that fits none", v.union(v.object({ a: v.number() }), v.object({ b: v.string() })), { c: 1 }],
  [
    "a union of objects that fits the second",
    v.union(v.object({ a: v.number() }), v.object({ b: v.string() })),
    {
      b: "x",
    },
  ],
  ["null for an object", v.object({ a: v.number() }), null],
  ["a record (not checked by convex-test)", v.record(v.string(), v.number()), { a: "x" }],
  ["anything for any", v.any(), { a: [1, "x", null] }],
  ["an array for an object", v.object({}), []],
  ["a list with one bad item", v.array(v.number()), [1, 2, "3"]],
  ["a value that is not a Convex value", v.any(), new Date(0)],
];

const modules = {
  "./_generated/api.js": () => Promise.resolve({}),
  "./cases.js": () =>
    Promise.resolve(
      Object.fromEntries(
        cases.map(([, returns, value], index) => [
          `q${index}`,
          queryGeneric({ args: {}, returns, handler: () => Promise.resolve(value as Value) }),
        ]),
      ),
    ),
};
const checkedHere = {
  ...modules,
  "./cases.js": async () => forConvexTest("cases", await modules["./cases.js"]()),
};

async function outcome(t: ReturnType<typeof convexTest>, index: number): Promise<string> {
  try {
    return `ok ${JSON.stringify(await t.query(makeFunctionReference<"query">(`cases:q${index}`), {}))}`;
  } catch (error) {
    return `error ${(error as Error).message}`;
  }
}

describe("query return values", () => {
  const reference = convexTest(undefined, modules);
  const local = convexTest(undefined, checkedHere);
  test.each(cases.map(([name], index) => [name, index] as const))("%s: as convex-test decides", async (_, index) => {
    expect(await outcome(local, index)).toBe(await outcome(reference, index));
  });

  test("a wrong return value is refused with convex-test's message", async () => {
    expect(await outcome(local, 1)).toBe(
      'error Return value validation failed for query "cases:q1":\n' +
        'Validator error: Expected one of literal, literal, literal, literal, got `"elsewhere"`',
    );
    expect(await outcome(local, 0)).toBe('ok "shared"');
  });
});

const schema = defineSchema({
  items: defineTable({ status: page, count: v.optional(v.number()), owner: v.union(v.id("items"), v.null()) }),
});
type Ctx = GenericMutationCtx<GenericDataModel>;
/** [name, what a transaction writes] */
const writes: [string, (ctx: Ctx) => Promise<unknown>][] = [
  [
    "a document whose union field takes its last member",
    (ctx) => ctx.db.insert("items", { status: "shared", owner: null }),
  ],
  ["a literal the union lacks", (ctx) => ctx.db.insert("items", { status: "lobby", owner: null })],
  ["a missing required field", (ctx) => ctx.db.insert("items", { status: "shared" })],
  ["an unexpected field", (ctx) => ctx.db.insert("items", { status: "shared", owner: null, extra: 1 })],
  ["an id of another table", (ctx) => ctx.db.insert("items", { status: "shared", owner: "12users" })],
  [
    "a patch to a later member",
    async (ctx) => {
      const id = await ctx.db.insert("items", { status: "monitor", owner: null });
      await ctx.db.patch(id, { status: "review", count: 2 });
    },
  ],
  [
    "a patch removing an optional field",
    async (ctx) => {
      const id = await ctx.db.insert("items", { status: "monitor", owner: null, count: 1 });
      await ctx.db.patch(id, { count: undefined });
    },
  ],
  [
    "a patch removing a field the schema lacks",
    async (ctx) => {
      const id = await ctx.db.insert("items", { status: "monitor", owner: null });
      await ctx.db.patch(id, { extra: undefined });
    },
  ],
  [
    "a patch to a bad member",
    async (ctx) => {
      const id = await ctx.db.insert("items", { status: "monitor", owner: null });
      await ctx.db.patch(id, { status: "elsewhere" });
    },
  ],
  [
    "a replace with a bad count",
    async (ctx) => {
      const id = await ctx.db.insert("items", { status: "monitor", owner: null });
      await ctx.db.replace(id, { status: "results", owner: null, count: "3" });
    },
  ],
];

describe("written documents", () => {
  const noModules = { "./_generated/api.js": () => Promise.resolve({}) };
  const reference = convexTest(schema, noModules);
  const local = convexTest(schema, noModules);
  new LocalDatabase(captureRootDatabase(local as never), null).load();
  const write = async (t: typeof local, index: number) => {
    try {
      await t.run(async (ctx) => {
        await writes[index]![1](ctx as unknown as Ctx);
      });
      return "ok";
    } catch (error) {
      return `error ${(error as Error).message}`;
    }
  };
  test.each(writes.map(([name], index) => [name, index] as const))("%s: as convex-test decides", async (_, index) => {
    expect(await write(local, index)).toBe(await write(reference, index));
  });
});

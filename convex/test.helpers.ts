/// <reference types="vite/client" />
// Shared convex-test setup (two dots in the name: Convex does not deploy this file).
import { convexTest } from "convex-test";
import type { Id } from "./_generated/dataModel";
import schema from "./schema";

export const modules = import.meta.glob(["./**/*.ts", "./_generated/*.js", "!./**/*.test.ts"]);

export function newTest() {
  return convexTest(schema, modules);
}

export type TestConvex = ReturnType<typeof newTest>;

/** A user row plus a client acting as them (the auth library's subject is "userId|sessionId"). */
export async function createUser(
  t: TestConvex,
  email: string,
  extra: { isAdmin?: boolean; fullName?: string } = {},
): Promise<{ userId: Id<"users">; as: ReturnType<TestConvex["withIdentity"]> }> {
  const userId = await t.run((ctx) =>
    ctx.db.insert("users", {
      email,
      isAdmin: extra.isAdmin ?? false,
      fullName: extra.fullName ?? null,
      avatarUrl: null,
      totalSpentCents: 0,
      testCount: 0,
    }),
  );
  return { userId, as: t.withIdentity({ subject: `${userId}|session`, email }) };
}

/** A small valid template body. */
export const sampleTemplateData = {
  userPrompt: "Write a tagline.",
  personas: [{ name: "Pirate", description: "Talks like a pirate", systemPrompt: "Arr." }],
  topics: [{ title: "Coffee", description: "A coffee shop", prompt: "Sell coffee." }],
  evaluationConfig: {
    rankingPrompt: "Rank them.",
    evaluationCriteria: { accuracy: true, creativity: false, clarity: false, relevance: false, style: false },
    scoringParameters: { scale: "ranking" as const, includeExplanations: true },
  },
  suggestedModels: { generators: [], evaluators: [] },
};

// A team's pages cost the same however many teams the deployment holds and however many members
// the team has: the documents read by the team's history, results (with its jury statistics and
// refund state), monitor, dashboard and spend summary are counted (convex-test's read tracking)
// for a small and a large deployment.
import { describe, expect, test } from "vitest";
import { createBackend } from "./test.helpers";
import { buildTeamScene, readsOf, TEAM_QUERIES, TEAM_TESTS, teamReads, type Scale } from "./teamScale.fixture";

async function measured(scale: Scale) {
  const scene = await buildTeamScene(createBackend(), scale);
  // The scene is what it says: the team's lists hold its own tests only, and its payers are listed.
  const history = await TEAM_QUERIES["history.list"](scene);
  expect(history.tests).toHaveLength(scale.teamTests ?? TEAM_TESTS);
  expect(await TEAM_QUERIES["tests.current"](scene)).toBe(scene.runningTestId);
  expect((await TEAM_QUERIES["billing.teamSpend"](scene)).members).toHaveLength(scene.payers);
  return await teamReads(scene);
}

describe("a team's pages at scale", () => {
  test("reads do not grow with the number of teams or members (the spend summary: beyond its members' own rows)", async () => {
    const small = await measured({ teams: 1, members: 2 });
    const manyTeams = await measured({ teams: 60, members: 2 });
    const manyMembers = await measured({ teams: 1, members: 150 });
    const both = await measured({ teams: 30, members: 90 });
    for (const large of [manyTeams, manyMembers, both]) {
      expect(large.teamSpendBeyondMembers).toBe(small.teamSpendBeyondMembers);
      const { "billing.teamSpend": _spend, ...others } = large.reads;
      const { "billing.teamSpend": _smallSpend, ...smallOthers } = small.reads;
      expect(others).toEqual(smallOthers);
    }
    // Small and bounded: the history lists the team's 12 tests, the rest read a few documents each.
    for (const [name, reads] of Object.entries(small.reads)) expect(reads, name).toBeLessThan(80);
  }, 120_000);

  test("the spend summary reads one row per paying member, however many payments the team has", async () => {
    const few = await buildTeamScene(createBackend(), { teams: 3, members: 3, teamTests: 6 });
    const many = await buildTeamScene(createBackend(), { teams: 3, members: 3, teamTests: 240 });
    const spend = async (scene: typeof few) => await readsOf(() => TEAM_QUERIES["billing.teamSpend"](scene));
    const [fewSpend, manySpend] = [await spend(few), await spend(many)];
    expect(manySpend.value.members.map((member) => member.tests).reduce((a, b) => a + b)).toBe(240);
    expect(fewSpend.value.members).toHaveLength(3);
    expect(manySpend.value.members).toHaveLength(3);
    expect(manySpend.reads).toBe(fewSpend.reads);
  }, 60_000);
});

// A team's pages read the same number of documents however many teams the deployment holds and
// however many members the team has. For 1/10/100 teams and 2/20/200 members (the measured team:
// its owner looking, 12 tests each paid by whoever started it, one running; every other team with
// its own 12 paid tests, two of the team's members and the owner as a viewer; two personal tests per
// member) it prints the documents each query of the team's pages reads and the ratio to the
// smallest case. The spend summary lists the members who paid (a spend row and a user each), so
// it is also shown without those rows. 200 members is beyond a team's 100 seats: the rows are
// inserted directly, to show the reads do not follow them.
//   npx tsx bench/team-reads.ts
import { fileURLToPath } from "node:url";
import { convexTest } from "convex-test";
import schema from "../convex/schema";
import { buildTeamScene, TEAM_QUERIES, teamReads, type Scale, type TeamQuery } from "../convex/teamScale.fixture";
import { collectModules } from "../dev/backend/modules";

const modules = collectModules(fileURLToPath(new URL("../convex", import.meta.url)));
const SCALES: Scale[] = [
  { teams: 1, members: 2 },
  { teams: 10, members: 20 },
  { teams: 100, members: 200 },
  { teams: 100, members: 2 },
  { teams: 1, members: 200 },
];

const results: { scale: Scale; reads: Record<TeamQuery, number>; teamSpendBeyondMembers: number }[] = [];
for (const scale of SCALES) {
  const started = performance.now();
  const t = convexTest({ schema, modules, transactionLimits: true });
  const scene = await buildTeamScene(t, scale);
  results.push({ scale, ...(await teamReads(scene)) });
  console.error(
    `built ${scale.teams} teams × ${scale.members} members in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

const pad = (text: string, width: number) => text.padEnd(width);
const label = (scale: Scale) => `${scale.teams}t×${scale.members}m`;
const base = results[0]!;
const rows: [string, (result: (typeof results)[number]) => number][] = [
  ...(Object.keys(TEAM_QUERIES) as TeamQuery[]).map(
    (name) => [name, (result: (typeof results)[number]) => result.reads[name]] as [string, (r: typeof base) => number],
  ),
  ["teamSpend beyond members", (result) => result.teamSpendBeyondMembers],
];
console.log("documents read per query (teams t × members m), and the ratio to 1t×2m");
console.log(pad("query", 28) + results.map((result) => pad(label(result.scale), 16)).join(""));
for (const [name, readsOf] of rows) {
  console.log(
    pad(name, 28) +
      results.map((result) => pad(`${readsOf(result)} (${(readsOf(result) / readsOf(base)).toFixed(2)})`, 16)).join(""),
  );
}

// `npx tsx bench/deployment.ts --all`: issue 32's whole matrix, Starter and Professional × one
// test and ten × without and with the kill knob, each cell a run of bench/deployment.ts of its
// own (a fresh backend and gateway), its output echoed, then a table of every target's PASS/FAIL.
// A run with faults is compared with the wall of the same cell without them (--compare-wall).
// Ten tests run at a smaller latency scale than one by default so the matrix ends in about half an
// hour on a shared machine; each run prints its scale (the targets are ratios, not seconds).
//   npx tsx bench/deployment.ts --all [--latency-scale 8] [--ten-latency-scale 2] [--kill-rate 0.01]
//     [--max-seconds 300] [--plans starter,professional]
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";

type Cell = { plan: string; ten: boolean; faults: boolean };
type Outcome = { cell: Cell; verdicts: string[]; slowestWall: number | null; load: string };

function label(cell: Cell): string {
  return `${cell.plan}, ${cell.ten ? "ten tests" : "one test"}, ${cell.faults ? "kill knob" : "no faults"}`;
}

async function runCell(args: string[]): Promise<string> {
  const child = spawn("npx", ["tsx", "bench/deployment.ts", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  child.stderr.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  await new Promise<void>((resolve) => child.on("close", () => resolve()));
  return output;
}

export async function runMatrix(): Promise<void> {
  const { values } = parseArgs({
    strict: false,
    options: {
      "latency-scale": { type: "string", default: "8" },
      "ten-latency-scale": { type: "string", default: "2" },
      "kill-rate": { type: "string", default: "0.01" },
      "max-seconds": { type: "string", default: "300" },
      plans: { type: "string", default: "starter,professional" },
    },
  });
  const outcomes: Outcome[] = [];
  for (const plan of String(values.plans).split(","))
    for (const ten of [false, true]) {
      let wallWithout: number | null = null;
      for (const faults of [false, true]) {
        const cell = { plan, ten, faults };
        const args = [
          "--plan",
          plan,
          "--latency-scale",
          String(ten ? values["ten-latency-scale"] : values["latency-scale"]),
          "--max-seconds",
          String(values["max-seconds"]),
          ...(ten ? ["--ten"] : []),
          ...(faults ? ["--faults", `kill-actions:${String(values["kill-rate"])}`] : []),
          ...(faults && wallWithout !== null ? ["--compare-wall", String(wallWithout)] : []),
        ];
        console.log(`\n=== ${label(cell)}: npx tsx bench/deployment.ts ${args.join(" ")}`);
        const output = await runCell(args);
        const verdicts = output.split("\n").filter((line) => /^\s+(PASS|FAIL)\s/.test(line));
        const wall = /slowest wall ([\d.]+) s/.exec(output);
        const slowestWall = wall ? Number(wall[1]) : null;
        if (!faults) wallWithout = slowestWall;
        const load = /load average \(2 cores shared\): (.*)/.exec(output)?.[1] ?? loadavg().join(" ");
        outcomes.push({ cell, verdicts, slowestWall, load });
      }
    }
  console.log(`\n=== the matrix (each target PASS/FAIL with its figure)`);
  for (const { cell, verdicts, slowestWall, load } of outcomes) {
    const passed = verdicts.filter((line) => line.trim().startsWith("PASS")).length;
    console.log(
      `\n${label(cell)}: ${passed}/${verdicts.length} PASS; slowest wall ${slowestWall ?? "?"} s; load ${load}` +
        `${verdicts.length === 0 ? "\n  (the run printed no targets: it failed)" : ""}`,
    );
    for (const line of verdicts) console.log(line);
  }
}

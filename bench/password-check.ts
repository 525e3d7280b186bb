// How long Convex Auth's password check takes, against a query's or mutation's 1 s limit on its
// own code. The Password provider hashes a new password (sign-up, reset) and checks one (sign-in)
// with Lucia's Scrypt (N = 16384, r = 16, p = 1; pure JavaScript that awaits after each of its
// 32,768 block mixes) inside the `auth:store` mutation, so its time counts against that limit.
// Prints, per call: the CPU time of the hash and of the check on this thread alone (one core, as a
// deployment's isolate has), and the `auth:store` attempt's own code as the local backend's clock
// charges it (meter's ownCodeMsMax) for one sign-up and one sign-in alone and for 20 sign-ups at
// once, each as a share of the 1 s limit.
//   npx tsx bench/password-check.ts [--calls 5] [--at-once 20]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Scrypt } from "lucia";
import { api } from "../convex/_generated/api";
import { startQuietBackend } from "../dev/backend/testing";
import { threadCpuMs } from "../dev/backend/userCode";

const { values } = parseArgs({
  options: { calls: { type: "string", default: "5" }, "at-once": { type: "string", default: "20" } },
});
const CALLS = Number(values.calls);
const AT_ONCE = Number(values["at-once"]);
const LIMIT_MS = 1000;
const PASSWORD = "a long enough bench password";

const share = (ms: number) => `${ms.toFixed(0)} ms (${((ms / LIMIT_MS) * 100).toFixed(0)}% of the 1 s limit)`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** CPU milliseconds of this thread spent in `work` (nothing else runs on it meanwhile). */
async function cpuOf(work: () => Promise<unknown>): Promise<number> {
  const started = threadCpuMs();
  await work();
  return threadCpuMs() - started;
}

const scrypt = new Scrypt();
const stored = await scrypt.hash(PASSWORD); // warms the JIT up
const hashes: number[] = [];
const checks: number[] = [];
for (let call = 0; call < CALLS; call++) {
  hashes.push(await cpuOf(() => scrypt.hash(PASSWORD)));
  checks.push(await cpuOf(() => scrypt.verify(stored, PASSWORD)));
}
console.log(
  `Lucia Scrypt on one core, median of ${CALLS}: hash ${share(median(hashes))}, check ${share(median(checks))}`,
);
console.log(
  `  (all hashes: ${hashes.map((ms) => ms.toFixed(0)).join(", ")} ms; checks: ${checks.map((ms) => ms.toFixed(0)).join(", ")} ms)`,
);

const keysDir = mkdtempSync(join(tmpdir(), "mj-bench-password-"));
const backend = await startQuietBackend(join(keysDir, "jwt-keys.json"), {
  env: { SITE_URL: "http://127.0.0.1:5173", AUTH_LOG_LEVEL: "ERROR" },
});
const signIn = (email: string, flow: "signUp" | "signIn") =>
  backend.t.action(api.auth.signIn, { provider: "password", params: { email, password: PASSWORD, flow } });
const storeOwnCode = async (work: () => Promise<unknown>) => {
  backend.meter.reset();
  await work();
  return backend.meter.read()["auth:store"]?.ownCodeMsMax ?? 0;
};
try {
  const signUp = await storeOwnCode(() => signIn("alone@example.com", "signUp"));
  const signInAlone = await storeOwnCode(() => signIn("alone@example.com", "signIn"));
  const together = await storeOwnCode(() =>
    Promise.all(Array.from({ length: AT_ONCE }, (_, index) => signIn(`burst-${index}@example.com`, "signUp"))),
  );
  console.log(`Local backend, auth:store's own code (its longest attempt): sign-up alone ${share(signUp)}`);
  console.log(`  sign-in alone ${share(signInAlone)}; ${AT_ONCE} sign-ups at once ${share(together)}`);
} finally {
  await backend.close();
  rmSync(keysDir, { recursive: true, force: true });
}

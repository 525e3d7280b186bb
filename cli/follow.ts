// Following a started test to its end. A test is done for the runner only when the API says its
// figures are final (`final`): "completed" is set about a second before the jury's last
// recomputation stores the ranks, and results read in that window have no rank for any model.
import { CliError, EXIT, sleep, type Client } from "./api";
import { progressBar, type ApiResults, type ApiStatus } from "./report";

const ENDED = new Set(["completed", "failed", "cancelled"]);

/** A status is the end when the test ended and its figures are final (older servers send no flag). */
export function isDone(status: ApiStatus): boolean {
  return ENDED.has(status.status) && status.final !== false;
}

export interface FollowOptions {
  pollMs: number;
  timeoutMs: number;
  /** Progress lines go here (stderr in the CLI). */
  say: (line: string) => void;
  /** Redraw one line in place (a terminal) instead of printing a timestamped line per step. */
  tty?: boolean;
  write?: (text: string) => void;
}

/** Polls the test until it is done; then reads its results, which are the final ones. */
export async function followToResults(
  client: Client,
  testId: string,
  options: FollowOptions,
): Promise<{ status: ApiStatus; results: ApiResults }> {
  const write = options.write ?? ((text: string) => process.stderr.write(text));
  const started = Date.now();
  let lastLine = "";
  let lastPlain = { phase: "", decile: -1 };
  let paymentNoted = false;
  let finalNoted = false;
  for (;;) {
    const status = await client.request<ApiStatus>("GET", `/tests/${testId}`);
    if (status.awaitingPayment && !paymentNoted) {
      options.say("Waiting for the payment…");
      paymentNoted = true;
    }
    const line = progressBar(status);
    if (options.tty) {
      if (line !== lastLine) write(`\r\x1b[2K${line}`);
    } else {
      const decile = Math.floor(status.progress.percentage / 10);
      if (status.progress.phase !== lastPlain.phase || decile !== lastPlain.decile) {
        options.say(`${new Date().toISOString()} ${line}`);
        lastPlain = { phase: status.progress.phase, decile };
      }
    }
    lastLine = line;
    if (isDone(status)) {
      if (options.tty) write("\n");
      const results = await client.request<ApiResults>("GET", `/tests/${testId}/results`);
      // The status said final; the results are read after it, so they are too.
      return { status: results.test ?? status, results };
    }
    if (ENDED.has(status.status) && !finalNoted) {
      if (options.tty) write("\n");
      options.say(`The test ${status.status}; waiting for the jury's final figures…`);
      finalNoted = true;
    }
    if (Date.now() - started > options.timeoutMs) {
      if (options.tty) write("\n");
      throw new CliError(
        `Gave up waiting after ${Math.round(options.timeoutMs / 60_000)} minutes; the test goes on (${status.status}).`,
        EXIT.testFailed,
      );
    }
    await sleep(options.pollMs);
  }
}

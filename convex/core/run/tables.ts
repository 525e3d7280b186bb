// Every table kept per test, listed once: what happens to its rows when a run opens, folds and
// ends, when an admin force-restarts it and when the test is deleted. The restart and the
// deletion (core/run/lifecycle.ts) act on this list alone, so a new per-test table is handled by
// adding its entry here (tables.test.ts fails for a table with a test index that has none).
import type { Doc, Id, TableNames } from "../../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../../_generated/server";
import { deleteJob } from "../jobs";

/** The presence room of a test (see presence.ts): its viewers are kept by room, not by test. */
export function testRoom(testId: Id<"tests">): string {
  return `test:${testId}`;
}

/** One per-test table: how to read a test's rows, and what each step of its life does to them. */
export interface PerTestTable<Table extends TableNames> {
  /** The index a test's rows are read by: it begins with `testId` (the presence tables': `room`). */
  index: string;
  /** Who writes it when the run opens (the dispatcher starts the job). */
  open: string;
  /** What the worker's recordings and reports do to it while the run goes on. */
  fold: string;
  /** What the run's end (finished, stopped, cancelled, timed out) does to it. */
  end: string;
  /** An admin's force restart runs the test again from nothing: the rows go, or stay. */
  restart: "delete" | "keep";
  /** Deleting the test: the rows go, or (money records) stay without their link to it. */
  delete: "delete" | "unlink";
  /** A row removed otherwise than by a plain delete (a job keeps the job counters right). */
  remove?: (ctx: MutationCtx, row: Doc<Table>) => Promise<void>;
}

type Registry = { [Table in TableNames]?: PerTestTable<Table> };

/** The rows of one test in a per-test table, through its index (on the test, or its presence room). */
export function rowsOfTest<Table extends PerTestTableName>(
  ctx: QueryCtx,
  table: Table,
  testId: Id<"tests">,
): AsyncIterable<Doc<Table>> {
  const entry = PER_TEST_TABLES[table] as PerTestTable<PerTestTableName>;
  const [field, value] = entry.index === "by_room_viewer" ? ["room", testRoom(testId)] : ["testId", testId];
  // The index is the entry's (tables.test.ts checks that it begins with the field read here).
  const query = ctx.db.query(table) as unknown as {
    withIndex: (
      index: string,
      range: (q: { eq: (field: string, value: unknown) => unknown }) => unknown,
    ) => AsyncIterable<Doc<Table>>;
  };
  return query.withIndex(entry.index, (q) => q.eq(field, value));
}

/**
 * Every per-test table. Order matters only for cost: the bulky result rows come first, so a
 * batch spends its budget on them and the small rows follow in the batch that finds them few.
 */
export const PER_TEST_TABLES = {
  evaluations: {
    index: "by_test",
    open: "none yet",
    fold: "one per judged answer, inserted by its judge call's recording",
    end: "kept: the results",
    restart: "delete",
    delete: "delete",
  },
  responses: {
    index: "by_test",
    open: "none yet (a re-judging copies its original's)",
    fold: "inserted by the generation calls' recordings",
    end: "kept: the results",
    restart: "delete",
    delete: "delete",
  },
  calls: {
    index: "by_test_status",
    open: "the generation calls, created in batches",
    fold: "leased and recorded; a pair's judge calls added by the worker's report",
    end: "kept (a retry sends the failed ones again)",
    restart: "delete",
    delete: "delete",
  },
  judgeExplanations: {
    index: "by_test",
    open: "none yet",
    fold: "one per ranking call, inserted by its recording",
    end: "kept: the results",
    restart: "delete",
    delete: "delete",
  },
  checkTallies: {
    index: "by_test",
    open: "none yet",
    fold: "one per generation call, inserted by its recording; folded into checkTotals and deleted by the folds",
    end: "all folded and deleted (a test ended before checkTotals existed keeps its own)",
    restart: "delete",
    delete: "delete",
  },
  checkTotals: {
    index: "by_test",
    open: "none yet",
    fold: "inserted by the first fold, the tallies added by each fold",
    end: "kept: the pass rates",
    restart: "delete",
    delete: "delete",
  },
  callGenerations: {
    index: "by_test",
    open: "none yet",
    fold: "one per gateway request of a call out, inserted by the worker's reports",
    end: "kept (a late lease finds nothing to take)",
    restart: "delete",
    delete: "delete",
  },
  runDeltas: {
    index: "by_test",
    open: "none yet",
    fold: "inserted by each recording; folded into the test's row and deleted by the reports",
    end: "all folded and deleted",
    restart: "delete",
    delete: "delete",
  },
  modelStats: {
    index: "by_test_model_persona",
    open: "none yet",
    fold: "written by the folds from the deltas",
    end: "kept: the rankings",
    restart: "delete",
    delete: "delete",
  },
  answerScores: {
    index: "by_test",
    open: "none yet",
    fold: "written by the folds from the judge calls' deltas",
    end: "kept: each answer's score",
    restart: "delete",
    delete: "delete",
  },
  juryStateChunks: {
    index: "by_test_index",
    open: "none yet",
    fold: "written by the jury statistics' recomputations",
    end: "replaced by the full recomputation",
    restart: "delete",
    delete: "delete",
  },
  testStats: {
    index: "by_test",
    open: "inserted when the worker starts its poll",
    fold: "written by the jury statistics' recomputations",
    end: "the full recomputation's figures",
    restart: "delete",
    delete: "delete",
  },
  juryAdvice: {
    index: "by_test",
    open: "none yet",
    fold: "none",
    end: "written by the full recomputation after the end (core/juryAdvice.ts)",
    restart: "delete",
    delete: "delete",
  },
  testConcurrency: {
    index: "by_test",
    open: "none yet",
    fold: "written by the worker's reports",
    end: "kept (the admin's System Health)",
    restart: "delete",
    delete: "delete",
  },
  testRuns: {
    index: "by_test",
    open: "written: what the recordings read of the test",
    fold: "read by every recording",
    end: "closed: later results are thrown away",
    restart: "delete",
    delete: "delete",
  },
  testWork: {
    index: "by_test",
    open: "written: what the claims build work items from",
    fold: "read by every claim",
    end: "kept",
    restart: "delete",
    delete: "delete",
  },
  testProgress: {
    index: "by_test",
    open: "none yet",
    fold: "written by the folds about once per 10 calls: the monitor's row",
    end: "deleted: the monitor reads the ended test",
    restart: "delete",
    delete: "delete",
  },
  testCounters: {
    index: "by_test",
    open: "none yet (the first fold inserts it)",
    fold: "added to by the folds: the counters, the progress and the latest error (core/pipeline/counterRow.ts)",
    end: "added into the test's row, then deleted",
    restart: "delete",
    delete: "delete",
  },
  humanJudgements: {
    index: "by_test_user",
    open: "none",
    fold: "written by teammates' blind reviews",
    end: "kept",
    restart: "delete", // they judged answers the restart deletes
    delete: "delete",
  },
  notes: {
    index: "by_test",
    open: "none",
    fold: "written by teammates on answers",
    end: "kept",
    restart: "delete", // they are on answers the restart deletes
    delete: "delete",
  },
  testSummaries: {
    index: "by_test",
    open: "synced with the test's status",
    fold: "synced when the cost or the missing work changed",
    end: "synced: the history's row",
    restart: "keep",
    delete: "delete",
  },
  testOwners: {
    index: "by_test",
    open: "synced with the test's status (with its summary)",
    fold: "none: what the access checks read",
    end: "synced with the test's status",
    restart: "keep",
    delete: "delete",
  },
  testNames: {
    index: "by_test",
    open: "none: written once with the access row, at creation",
    fold: "none: what the pages name things by",
    end: "kept",
    restart: "keep",
    delete: "delete",
  },
  shares: {
    index: "by_test",
    open: "none",
    fold: "none",
    end: "kept",
    restart: "keep",
    delete: "delete",
  },
  jobs: {
    index: "by_test",
    open: "set processing by the dispatcher",
    fold: "none",
    end: "closed with the test",
    restart: "keep",
    delete: "delete",
    remove: deleteJob,
  },
  payments: {
    index: "by_test",
    open: "none",
    fold: "none",
    end: "refunded when the run failed",
    restart: "keep",
    delete: "unlink",
  },
  creditTransactions: {
    index: "by_test",
    open: "none",
    fold: "none",
    end: "a refund's row added",
    restart: "keep",
    delete: "unlink",
  },
  presence: {
    index: "by_room_viewer",
    open: "none",
    fold: "none",
    end: "kept",
    restart: "keep",
    delete: "delete",
  },
  presenceSessions: {
    index: "by_room_viewer",
    open: "none",
    fold: "none",
    end: "kept",
    restart: "keep",
    delete: "delete",
  },
} satisfies Registry;

export type PerTestTableName = keyof typeof PER_TEST_TABLES;

// Projections of a test row shared by the monitor, the results, the history and the shared page,
// built from the schema's own validator so a field is declared once.
import { v, type Infer } from "convex/values";
import type { Doc } from "../_generated/dataModel";
import { pickFields } from "../lib/fields";
import { HEADER_FIELDS, MISSING_WORK_FIELDS } from "../lib/resultsFigures";
import { monitorSizeOf } from "../lib/progressWrites";
import schema from "../schema";
import { monitorSize, type runningHeader } from "../tables/testProgress";
import { isDraft } from "./userStats";

const testFields = schema.tables.tests.validator;

/** What a test gave up on and the last gateway error (lib/progress.ts missingWorkSummary words it). */
export const missingWorkValidator = testFields.pick(...MISSING_WORK_FIELDS);

export const testHeader = testFields.pick(...HEADER_FIELDS).extend({
  _id: v.id("tests"),
  _creationTime: v.number(),
  jobStatus: v.optional(v.string()),
  /** An unpaid draft: it is paid ('Complete Payment') or discarded, never stopped. */
  awaitingPayment: v.boolean(),
  /** What the user was charged for the run (0 when free or run on their own key). */
  chargedCents: v.number(),
});

/**
 * The results page's test as stored (results.test, which no fold re-runs): the header but for its
 * job's fields, with the judging spend its metrics split by.
 */
export const storedTestHeader = testFields.pick(...HEADER_FIELDS, "judgingCostUsd").extend({
  _id: v.id("tests"),
  _creationTime: v.number(),
  awaitingPayment: v.boolean(),
});

export function storedHeaderOf(test: Doc<"tests">): Infer<typeof storedTestHeader> {
  return {
    ...pickFields(test, [...HEADER_FIELDS, "judgingCostUsd"]),
    _id: test._id,
    _creationTime: test._creationTime,
    awaitingPayment: isDraft(test),
  };
}

/** What the results page shows of the test's job: its status and what the user was charged. */
export const jobFiguresValidator = v.union(v.null(), v.object({ status: v.string(), chargedCents: v.number() }));

export function jobFiguresOf(job: Doc<"jobs"> | null): Infer<typeof jobFiguresValidator> {
  return job === null
    ? null
    : { status: job.status, chargedCents: job.paymentData === undefined ? 0 : job.amountCents };
}

/**
 * The live monitor's test: the header without the configuration (the monitor reads none while
 * the test runs, only its small monitor row), with what the monitor says of its size instead.
 */
export const monitorHeader = testHeader.omit("configuration").extend({ size: monitorSize });

export function headerOf(test: Doc<"tests">, job: Doc<"jobs"> | null): Infer<typeof testHeader> {
  return {
    ...pickFields(test, HEADER_FIELDS),
    _id: test._id,
    _creationTime: test._creationTime,
    ...(job ? { jobStatus: job.status } : {}),
    awaitingPayment: isDraft(test),
    chargedCents: job?.paymentData === undefined ? 0 : job.amountCents,
  };
}

/** The monitor's header of a test read whole (one that is not running, or has no monitor row yet). */
export function monitorHeaderOf(test: Doc<"tests">, job: Doc<"jobs"> | null): Infer<typeof monitorHeader> {
  const { configuration, ...header } = headerOf(test, job);
  return { ...header, size: monitorSizeOf(configuration, test.missingResponses) };
}

/** The monitor's header of a running test from its monitor row (core/monitorProgress.ts). */
export function monitorHeaderOfRow(
  row: Pick<Doc<"testProgress">, "testId" | "teamId" | "header">,
  job: Doc<"jobs"> | null,
): Infer<typeof monitorHeader> {
  const { createdAt, ...header }: Infer<typeof runningHeader> = row.header;
  return {
    ...header,
    _id: row.testId,
    _creationTime: createdAt,
    ...(row.teamId === undefined ? {} : { teamId: row.teamId }),
    ...(job ? { jobStatus: job.status } : {}),
    awaitingPayment: false,
    chargedCents: job?.paymentData === undefined ? 0 : job.amountCents,
  };
}

import * as z from "zod/mini";

import { searchId, searchParser } from "@/lib/search-params";

const MAX_ID_LENGTH = 200;
const MAX_JUDGES_LENGTH = 2000;

/**
 * Search of /dashboard/setup: `template` starts from a built-in or saved template, `rerun` from a
 * past test's configuration (with `judges`, only those of its judges), and `payment=cancelled` is where the checkout's Cancel returns.
 * Bad values are dropped rather than rejected, so a broken link still shows the page.
 */
const setupSearch = z.object({
  template: searchId(MAX_ID_LENGTH),
  rerun: searchId(MAX_ID_LENGTH),
  /** With rerun: the judges to keep (comma-separated ids), the results' jury advice. */
  judges: searchId(MAX_JUDGES_LENGTH),
  payment: searchId(MAX_ID_LENGTH),
});

export type SetupSearch = z.infer<typeof setupSearch>;
export const parseSetupSearch = searchParser(setupSearch);

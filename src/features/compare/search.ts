import * as z from "zod/mini";

import { searchId, searchParser } from "@/lib/search-params";

const MAX_ID_LENGTH = 200;

/**
 * Search of /compare: `a` and `b` are the two tests' ids. Bad values are dropped rather than
 * rejected, so a broken link still shows the page (which then says what is missing).
 */
const compareSearch = z.object({ a: searchId(MAX_ID_LENGTH), b: searchId(MAX_ID_LENGTH) });

export type CompareSearch = z.infer<typeof compareSearch>;
export const parseCompareSearch = searchParser(compareSearch);

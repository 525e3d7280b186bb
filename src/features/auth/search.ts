import * as z from "zod/mini";

import { isSameOriginPath } from "@/lib/navigation";
import { dropInvalid, searchParser } from "@/lib/search-params";

/**
 * Search of /login and /signup: `redirect` is the originally requested location. Anything that
 * is not a path on this site is dropped rather than rejected, so a bad link still shows the form.
 */
const authSearch = z.object({ redirect: dropInvalid(z.string().check(z.refine(isSameOriginPath))) });

export type AuthSearch = z.infer<typeof authSearch>;
export const parseAuthSearch = searchParser(authSearch);

import { definedEntries, optionalId } from "@/lib/search-params";

const MAX_ID_LENGTH = 200;

export interface SetupSearch {
  template?: string;
  rerun?: string;
  payment?: string;
}

/**
 * Search of /dashboard/setup: `template` starts from a built-in or saved template, `rerun` from a
 * past test's configuration, and `payment=cancelled` is where the checkout's Cancel returns.
 * Bad values are dropped rather than rejected, so a broken link still shows the page.
 */
export function parseSetupSearch(search: Record<string, unknown>): SetupSearch {
  return definedEntries({
    template: optionalId(search.template, MAX_ID_LENGTH),
    rerun: optionalId(search.rerun, MAX_ID_LENGTH),
    payment: optionalId(search.payment, MAX_ID_LENGTH),
  });
}

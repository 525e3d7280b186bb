// Why an answer failed its checks, in one line (the responses list and the exports). Kept apart
// from checks.ts, which brings the regex and JSON Schema engines into any bundle importing it.

/**
 * An answer's failure reasons, each said once, in the checks' order: an answer that is not JSON
 * fails both an is-JSON check and a JSON Schema check for the same reason, "not valid JSON".
 */
export function distinctFailureReasons(failures: readonly { readonly reason: string }[]): string[] {
  return [...new Set(failures.map((failure) => failure.reason))];
}

/** The same, in one line. */
export function checkFailureReasons(failures: readonly { readonly reason: string }[]): string {
  return distinctFailureReasons(failures).join("; ");
}

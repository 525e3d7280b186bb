// Where the app sends people: the rules of spec part 1 §2 and part 2 §2, kept pure so they
// can be tested without a router.

export const SIGNED_IN_HOME = "/dashboard";
export const SIGNED_OUT_HOME = "/";
export const LOGIN_PATH = "/login";
export const MONITOR_PATH = "/dashboard/monitor";

/** The usage section of account settings (own API key): /dashboard/settings#usage. */
export const USAGE_SECTION_ID = "usage";

const PLACEHOLDER_ORIGIN = "https://modeljury.invalid";

/**
 * True for a path on this site ('/dashboard?x=1#y'); false for absolute and protocol-relative
 * URLs ('https://evil.example', '//evil.example', '/\\evil.example'), which would turn the
 * `redirect` parameter into an open redirect.
 */
export function isSameOriginPath(value: unknown): value is string {
  if (typeof value !== "string" || !value.startsWith("/")) return false;
  if (value.startsWith("//") || value.includes("\\")) return false;
  // Control characters (tabs, newlines) are dropped by URL parsers and can hide a scheme.
  if (hasControlCharacter(value)) return false;
  try {
    return new URL(value, PLACEHOLDER_ORIGIN).origin === PLACEHOLDER_ORIGIN;
  } catch {
    return false;
  }
}

function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function pathnameOf(path: string): string {
  return new URL(path, PLACEHOLDER_ORIGIN).pathname;
}

/**
 * Where to go once a user is present on the sign-in or sign-up screen: the originally requested
 * location when it is a path on this site (and not an auth screen), else the dashboard.
 */
export function postAuthDestination(redirect: unknown): string {
  if (!isSameOriginPath(redirect)) return SIGNED_IN_HOME;
  const pathname = pathnameOf(redirect);
  if (pathname === LOGIN_PATH || pathname === "/signup") return SIGNED_IN_HOME;
  return redirect;
}

/** The search of the /login address a signed-out visitor of `attemptedHref` is sent to. */
export function loginSearchFor(attemptedHref: string): { redirect?: string } {
  return isSameOriginPath(attemptedHref) ? { redirect: attemptedHref } : {};
}

/** The href of the /login address a signed-out visitor of `attemptedHref` is sent to. */
export function loginHrefFor(attemptedHref: string): string {
  const { redirect } = loginSearchFor(attemptedHref);
  return redirect === undefined ? LOGIN_PATH : `${LOGIN_PATH}?redirect=${encodeURIComponent(redirect)}`;
}

/** Any path without a route: the dashboard when signed in, otherwise the landing page. */
export function notFoundDestination(signedIn: boolean): string {
  return signedIn ? SIGNED_IN_HOME : SIGNED_OUT_HOME;
}

export interface LocationLike {
  pathname: string;
  /** The parsed search; the router may parse numeric-looking values as numbers. */
  search: Record<string, unknown>;
}

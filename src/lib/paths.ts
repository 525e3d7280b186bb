// Paths of screens whose routes later issues add. Typed as plain strings so links to them
// compile before the route files exist (TanStack Router checks literal paths against the
// route tree); once a route exists, a literal `to` is checked as usual.
export const SETUP_PATH: string = "/dashboard/setup";
export const MONITOR_PAGE_PATH: string = "/dashboard/monitor";
export const HISTORY_PATH: string = "/dashboard/history";
export const TEMPLATES_PATH: string = "/dashboard/templates";
export const ACCOUNT_SETTINGS_PATH: string = "/dashboard/settings";
/** The usage section of account settings (own API key): `${ACCOUNT_SETTINGS_PATH}#${USAGE_SECTION_ID}`. */
export const USAGE_SECTION_ID = "usage";
export const BILLING_PATH: string = "/dashboard/billing";
export const ADMIN_PATH: string = "/admin";
export const FEATURES_PATH: string = "/features";
export const ABOUT_PATH: string = "/about";
export const CONTACT_PATH: string = "/contact";
export const AWARDS_PATH: string = "/awards";

// The marks the built landing page carries for its script (src/landing-main.ts); React-free.

/** Marks the variant of a part shown to signed-in or signed-out visitors. */
export const SESSION_VIEW_ATTRIBUTE = "data-session-view";
/** Marks the links whose target is the dashboard for a signed-in visitor. */
export const SIGNED_IN_HREF_ATTRIBUTE = "data-signed-in-href";
/** Marks the light/dark switch. */
export const THEME_TOGGLE_ATTRIBUTE = "data-theme-toggle";

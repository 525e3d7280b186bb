import {
  SESSION_VIEW_ATTRIBUTE,
  SIGNED_IN_HREF_ATTRIBUTE,
  THEME_TOGGLE_ATTRIBUTE,
} from "@/features/marketing/static-markup-attributes";
import { paymentReturnRewrite } from "@/lib/payment-return";
import { hasStoredSession } from "@/lib/stored-session";
import { readStoredTheme, resolveTheme, storeTheme } from "@/lib/theme";
import "@/index.css";

// The landing page (/) as its own entry: its HTML is rendered when the site is built
// (vite.config.ts), so a first visit downloads no React, router or Convex client; this script
// only chooses the variants that depend on the visitor. Its links are plain anchors into the app.

const DARK_QUERY = "(prefers-color-scheme: dark)";

function showSession(signedIn: boolean): void {
  for (const element of document.querySelectorAll<HTMLElement>(`[${SESSION_VIEW_ATTRIBUTE}]`)) {
    element.hidden = element.getAttribute(SESSION_VIEW_ATTRIBUTE) !== (signedIn ? "signed-in" : "signed-out");
  }
  for (const link of document.querySelectorAll<HTMLAnchorElement>(`a[${SIGNED_IN_HREF_ATTRIBUTE}]`)) {
    if (!link.dataset.signedOutHref) link.dataset.signedOutHref = link.getAttribute("href") ?? "/";
    link.setAttribute("href", signedIn ? link.getAttribute(SIGNED_IN_HREF_ATTRIBUTE)! : link.dataset.signedOutHref);
  }
}

function applyTheme(): void {
  const prefersDark = typeof window.matchMedia === "function" && window.matchMedia(DARK_QUERY).matches;
  const dark = resolveTheme(readStoredTheme(), prefersDark) === "dark";
  document.documentElement.classList.toggle("dark", dark);
  for (const toggle of document.querySelectorAll(`[${THEME_TOGGLE_ATTRIBUTE}]`)) {
    toggle.setAttribute("aria-label", `Switch to ${dark ? "light" : "dark"} theme`);
  }
}

const location = {
  pathname: window.location.pathname,
  search: Object.fromEntries(new URLSearchParams(window.location.search)),
};
const paymentReturn = paymentReturnRewrite(location, hasStoredSession());

if (paymentReturn !== null) {
  // A return from payment goes to the monitor, which checks the real session.
  window.location.replace(paymentReturn);
} else {
  showSession(hasStoredSession());
  applyTheme();
  // Another tab signing in or out, or choosing a theme, changes what this one shows.
  window.addEventListener("storage", () => {
    showSession(hasStoredSession());
    applyTheme();
  });
  if (typeof window.matchMedia === "function") window.matchMedia(DARK_QUERY).addEventListener("change", applyTheme);
  for (const toggle of document.querySelectorAll(`[${THEME_TOGGLE_ATTRIBUTE}]`)) {
    toggle.addEventListener("click", () => {
      storeTheme(document.documentElement.classList.contains("dark") ? "light" : "dark");
      applyTheme();
    });
  }
}

import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

import { ThemeProvider } from "@/components/theme-provider";
import { LandingPage } from "@/features/marketing/landing-page";
import { paymentReturnRewrite } from "@/lib/navigation";
import { hasStoredSession } from "@/lib/session";
import "@/index.css";

// The landing page (/) as its own entry: no router and no Convex client, so a first visit
// downloads little JavaScript (issue 7). Its links are plain anchors into the app (index.html).
const location = { pathname: window.location.pathname, search: Object.fromEntries(new URLSearchParams(window.location.search)) };
const paymentReturn = paymentReturnRewrite(location, hasStoredSession());

if (paymentReturn !== null) {
  // A return from payment goes to the monitor, which checks the real session.
  window.location.replace(paymentReturn);
} else {
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <ThemeProvider>
        <LandingPage />
      </ThemeProvider>
    </StrictMode>,
  );
}

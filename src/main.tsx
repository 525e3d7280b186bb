import { ConvexAuthProvider } from "@convex-dev/auth/react";
import { RouterProvider } from "@tanstack/react-router";
import { ConvexReactClient } from "convex/react";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

import { ConfigurationError } from "@/components/configuration-error";
import { ThemeProvider } from "@/components/theme-provider";
import { createAppRouter } from "@/router";
import "@/index.css";

function createConvexClient(): { client: ConvexReactClient } | { error: string } {
  const url = import.meta.env.VITE_CONVEX_URL?.trim();
  if (!url) return { error: "VITE_CONVEX_URL is not set." };
  try {
    // The offline dev backend is not a *.convex.cloud address; let the client accept any URL.
    return { client: new ConvexReactClient(url, { skipConvexDeploymentUrlCheck: true }) };
  } catch (error) {
    return { error: `VITE_CONVEX_URL=${url} is not usable: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const convex = createConvexClient();
const router = createAppRouter();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <ThemeProvider>
      {"client" in convex ? (
        <ConvexAuthProvider client={convex.client}>
          <RouterProvider router={router} />
        </ConvexAuthProvider>
      ) : (
        <ConfigurationError detail={convex.error} />
      )}
    </ThemeProvider>
  </StrictMode>,
);

import { useRouter, type ErrorComponentProps } from "@tanstack/react-router";

import { AlertTriangleIcon, HomeIcon, RotateCcwIcon } from "@/components/inline-icon";
import { buttonVariants } from "@/components/ui/button-variants";
import { errorMessage } from "@/lib/errors";

/** The router's fallback when a screen throws (spec part 1 §8: 'Unexpected Application Error!'). */
export function RouteErrorScreen({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  // Every page loads this screen: plain elements instead of Button, inline icons (the landing
  // page's JavaScript budget is 60 KB gzipped).
  return (
    <div className="flex min-h-dvh items-center justify-center bg-background p-6">
      <div role="alert" className="w-full max-w-lg space-y-4 rounded-xl border bg-card p-8 text-center shadow-sm">
        <AlertTriangleIcon className="mx-auto size-10 text-destructive" aria-hidden="true" />
        <h1 className="text-xl font-semibold">Unexpected Application Error!</h1>
        <p className="text-sm break-words text-muted-foreground">{errorMessage(error, "An unknown error occurred.")}</p>
        <div className="flex flex-col justify-center gap-2 sm:flex-row">
          <button
            type="button"
            className={buttonVariants({ variant: "outline" })}
            onClick={() => {
              reset();
              void router.invalidate();
            }}
          >
            <RotateCcwIcon /> Try Again
          </button>
          {/* A full page load: the router itself may be what failed. */}
          <a href="/" className={buttonVariants()}>
            <HomeIcon /> Go Home
          </a>
        </div>
      </div>
    </div>
  );
}

import type { ReactNode } from "react";

import { ErrorState } from "@/components/error-state";
import { QueryErrorBoundary } from "@/components/query-error-boundary";
import { errorMessage } from "@/lib/errors";

/** Keeps a failed query inside one admin tab; 'Try Again' mounts the tab again. */
export function AdminErrorBoundary({ title, children }: { title: string; children: ReactNode }) {
  return (
    <QueryErrorBoundary
      fallback={(error, reset) => <ErrorState title={title} message={errorMessage(error)} onRetry={reset} />}
    >
      {children}
    </QueryErrorBoundary>
  );
}

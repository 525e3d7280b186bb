import type { ReactNode } from "react";

/** What went wrong, above a dialog's buttons: announced as it appears; nothing when there is nothing. */
export function DialogError({ children }: { children: ReactNode }) {
  if (children === null || children === undefined || children === false || children === "") return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive"
    >
      {children}
    </p>
  );
}

import type { ReactNode } from "react";

/** One of the compare page's sections: a titled region (its heading names it). */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `compare-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

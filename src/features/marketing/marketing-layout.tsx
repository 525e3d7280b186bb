import type { ReactNode } from "react";

import { MarketingFooter } from "@/features/marketing/marketing-footer";
import { MarketingHeader } from "@/features/marketing/marketing-header";

/** The frame of every public page: header, content, footer. */
export function MarketingLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-background">
      <MarketingHeader />
      <main className="flex-1">{children}</main>
      <MarketingFooter />
    </div>
  );
}

/** The title block at the top of a public page. */
export function PageIntro({ eyebrow, title, children }: { eyebrow?: string; title: string; children?: ReactNode }) {
  return (
    <section className="border-b bg-muted/40">
      <div className="mx-auto max-w-4xl px-4 py-14 text-center sm:py-20">
        {eyebrow && <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>}
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-balance sm:text-5xl">{title}</h1>
        {children && (
          <div className="mx-auto mt-5 max-w-2xl text-lg text-balance text-muted-foreground">{children}</div>
        )}
      </div>
    </section>
  );
}

import { Link } from "@tanstack/react-router";
import { AwardIcon, ExternalLinkIcon, MedalIcon, TrophyIcon, UsersIcon } from "lucide-react";

import { buttonVariants } from "@/components/ui/button-variants";
import { MarketingLayout, PageIntro } from "@/features/marketing/marketing-layout";

/** External pages of the award. Kept together so they are easy to check and update. */
export const AWARD_LINKS = {
  hackathon: "https://hackathon.dev/",
  winners: "https://hackathon.dev/winners",
  project: "https://devpost.com/software/modeljury",
} as const;

const HIGHLIGHTS: readonly { title: string; text: string }[] = [
  {
    title: "A jury instead of a single judge",
    text: "Judges saw ModelJury rank answers with several evaluator models at once, so no single model's taste decides the winner.",
  },
  {
    title: "Numbers people can act on",
    text: "Response time, token usage, cost and scores per model, per persona and per topic, instead of a gut feeling.",
  },
  {
    title: "Live from the first answer",
    text: "The demo streamed responses and rankings into the monitor as they arrived, and shared the final results with a public link.",
  },
];

function ExternalLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={buttonVariants({ variant: "outline" })}>
      {children} <ExternalLinkIcon aria-hidden="true" />
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}

export function AwardsPage() {
  return (
    <MarketingLayout>
      <PageIntro eyebrow="Awards" title="Recognised by builders">
        ModelJury started as a hackathon project, and the jury liked it too.
      </PageIntro>
      <div className="mx-auto max-w-4xl space-y-12 px-4 py-12">
        <section aria-labelledby="award-hackathon" className="rounded-2xl border bg-card p-6 shadow-sm sm:p-10">
          <div className="flex flex-col gap-6 sm:flex-row sm:items-start">
            <div className="flex size-16 shrink-0 items-center justify-center rounded-2xl bg-amber-500/15 text-amber-600 dark:text-amber-400">
              <TrophyIcon aria-hidden="true" className="size-8" />
            </div>
            <div className="space-y-3">
              <p className="text-sm font-semibold tracking-wide text-amber-700 uppercase dark:text-amber-400">
                7th place
              </p>
              <h2 id="award-hackathon" className="text-2xl font-bold tracking-tight">
                Hackathon finalist: 7th place overall
              </h2>
              <p className="text-muted-foreground">
                Out of the projects submitted to the hackathon, ModelJury placed 7th overall. The judges singled out the
                idea of letting a panel of AI models evaluate other models' answers, and a product that turns that into
                a price you see up front and results you can read in minutes.
              </p>
              <div className="flex flex-wrap gap-3 pt-2">
                <ExternalLink href={AWARD_LINKS.winners}>See the winners</ExternalLink>
                <ExternalLink href={AWARD_LINKS.project}>Our project page</ExternalLink>
                <ExternalLink href={AWARD_LINKS.hackathon}>About the hackathon</ExternalLink>
              </div>
            </div>
          </div>
        </section>

        <section aria-labelledby="award-why">
          <h2 id="award-why" className="text-2xl font-bold tracking-tight">
            What the judges saw
          </h2>
          <ul className="mt-6 grid gap-4 md:grid-cols-3">
            {HIGHLIGHTS.map(({ title, text }, index) => {
              const Icon = [UsersIcon, MedalIcon, AwardIcon][index] ?? AwardIcon;
              return (
                <li key={title} className="rounded-xl border p-5">
                  <Icon aria-hidden="true" className="size-5 text-primary" />
                  <h3 className="mt-3 font-semibold">{title}</h3>
                  <p className="mt-1 text-sm text-muted-foreground">{text}</p>
                </li>
              );
            })}
          </ul>
        </section>

        <section className="flex flex-col items-center gap-4 rounded-2xl bg-muted/50 px-6 py-10 text-center">
          <h2 className="text-2xl font-bold tracking-tight">Try the project the judges ranked</h2>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Link to="/signup" className={buttonVariants({ size: "lg" })}>
              Create an account
            </Link>
            <Link to="/features" className={buttonVariants({ variant: "outline", size: "lg" })}>
              See the features
            </Link>
          </div>
        </section>
      </div>
    </MarketingLayout>
  );
}

import { Link } from "@tanstack/react-router";
import { EyeIcon, ScaleIcon, ShieldCheckIcon, TrophyIcon } from "lucide-react";

import { buttonVariants } from "@/components/ui/button-variants";
import { MarketingLayout, PageIntro } from "@/features/marketing/marketing-layout";

const PRINCIPLES = [
  {
    icon: ScaleIcon,
    title: "Fair comparisons",
    text: "Every model gets the same personas, topics and prompt. Judges see answers under neutral labels, in a shuffled order, and several judges outvote one model's bias.",
  },
  {
    icon: EyeIcon,
    title: "Prices in the open",
    text: "You see what a test costs before it runs, computed from the models' current prices. No subscriptions, no credit packages, no surprises on the invoice.",
  },
  {
    icon: ShieldCheckIcon,
    title: "Your tests are yours",
    text: "Your prompts go only to the models you choose. Results are private until you share a link, and you can turn sharing off or delete a test at any time.",
  },
] as const;

export function AboutPage() {
  return (
    <MarketingLayout>
      <PageIntro eyebrow="About" title="Choosing an AI model should not be guesswork">
        ModelJury helps teams pick the right language model for a job by testing models on their own inputs and letting
        a jury of models judge the answers.
      </PageIntro>
      <div className="mx-auto max-w-4xl space-y-14 px-4 py-14">
        <section aria-labelledby="about-why" className="space-y-4">
          <h2 id="about-why" className="text-2xl font-bold tracking-tight">
            Why we built it
          </h2>
          <p className="text-muted-foreground">
            New models appear every month, each with its own price, speed and strengths. Public leaderboards measure
            general ability, but your customers ask about your product, in your tone, with your constraints. The only
            way to know which model serves them best is to try several on your own prompts and compare the answers
            carefully, which takes hours by hand.
          </p>
          <p className="text-muted-foreground">
            ModelJury does that work for you. You describe the job with personas, topics and a prompt; we send it to
            every model you picked; then evaluator models rank or score every answer on the criteria you chose. You get
            rankings, per-persona breakdowns, sample answers, response times and costs, usually within 5-15 minutes and
            for about $2-15 a test.
          </p>
        </section>

        <section aria-labelledby="about-principles">
          <h2 id="about-principles" className="text-2xl font-bold tracking-tight">
            What we believe
          </h2>
          <ul className="mt-6 grid gap-4 md:grid-cols-3">
            {PRINCIPLES.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-xl border bg-card p-6 shadow-sm">
                <Icon aria-hidden="true" className="size-6 text-primary" />
                <h3 className="mt-4 font-semibold">{title}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section
          aria-labelledby="about-story"
          className="flex flex-col gap-6 rounded-2xl border p-6 sm:flex-row sm:items-center sm:p-8"
        >
          <TrophyIcon aria-hidden="true" className="size-10 shrink-0 text-amber-500" />
          <div className="space-y-2">
            <h2 id="about-story" className="text-xl font-bold tracking-tight">
              Born at a hackathon
            </h2>
            <p className="text-muted-foreground">
              ModelJury began as a hackathon project and placed 7th overall. Since then it has grown into a product with
              live monitoring, templates, sharing and pay-per-test billing.
            </p>
            <Link to="/awards" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
              Read about the award
            </Link>
          </div>
        </section>

        <section className="flex flex-col items-center gap-4 rounded-2xl bg-muted/50 px-6 py-10 text-center">
          <h2 className="text-2xl font-bold tracking-tight">Questions, ideas or a partnership in mind?</h2>
          <p className="text-muted-foreground">We reply within 24 hours.</p>
          <Link to="/contact" className={buttonVariants({ size: "lg" })}>
            Contact us
          </Link>
        </section>
      </div>
    </MarketingLayout>
  );
}

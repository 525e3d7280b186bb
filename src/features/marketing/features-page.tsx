import { Link } from "@tanstack/react-router";
import {
  ActivityIcon,
  BarChart3Icon,
  ColumnsIcon,
  DownloadIcon,
  GavelIcon,
  KeyRoundIcon,
  LayersIcon,
  LayoutTemplateIcon,
  Share2Icon,
  UsersIcon,
  WalletIcon,
  HistoryIcon,
  type LucideIcon,
} from "lucide-react";

import { buttonVariants } from "@/components/ui/button-variants";
import { MarketingLayout, PageIntro } from "@/features/marketing/marketing-layout";

import { criteriaInWords } from "../../../convex/lib/criteria";

interface Feature {
  icon: LucideIcon;
  title: string;
  text: string;
}

interface FeatureGroup {
  id: string;
  title: string;
  intro: string;
  features: readonly Feature[];
}

const GROUPS: readonly FeatureGroup[] = [
  {
    id: "build",
    title: "Build a test in minutes",
    intro: "Everything a fair comparison needs, on one page, with the price in view the whole time.",
    features: [
      {
        icon: ColumnsIcon,
        title: "Compare 10+ models side by side",
        text: "Pick generator models from a catalog of current foundation models, grouped into tiers from Budget to Flagship, or start from a ready-made model bundle.",
      },
      {
        icon: UsersIcon,
        title: "Personas and topics",
        text: "Personas set how a model should behave; topics set the scenario. Every model answers every persona and topic pair, so differences show up where they matter.",
      },
      {
        icon: LayoutTemplateIcon,
        title: "Templates",
        text: "Start from six built-in templates (marketing copy, code, customer service, content and SEO, documentation, custom), save your own, and share them in the public library.",
      },
    ],
  },
  {
    id: "judge",
    title: "Judged by a jury of models",
    intro:
      "Evaluator models read every answer under neutral labels and in a shuffled order, so no model knows whose answer it is judging.",
    features: [
      {
        icon: GavelIcon,
        title: "Ranking or rating",
        text: `Rank all answers to a prompt from best to worst, or score each one on ${criteriaInWords()}, with explanations if you want them.`,
      },
      {
        icon: BarChart3Icon,
        title: "Quantitative metrics",
        text: "Average score, response time, token usage and cost for every model, overall and per persona, with the top performers called out.",
      },
      {
        icon: ActivityIcon,
        title: "Live monitor",
        text: "Watch responses and rankings arrive as they happen. Results are usually ready in 5-15 minutes, and you can stop a test at any time.",
      },
    ],
  },
  {
    id: "use",
    title: "Use the results",
    intro: "A result is only useful if you can find it again, show it to someone and act on it.",
    features: [
      {
        icon: HistoryIcon,
        title: "History and reruns",
        text: "Every test stays in your history with its configuration. Rerun it when a new model comes out and compare like with like.",
      },
      {
        icon: Share2Icon,
        title: "Share a link",
        text: "Turn on sharing to give anyone a read-only page with the rankings and sample responses, and turn it off again whenever you like.",
      },
      {
        icon: DownloadIcon,
        title: "CSV export",
        text: "Download responses, evaluations, payments and credit transactions as CSV for your own analysis.",
      },
    ],
  },
  {
    id: "pay",
    title: "Pay for what you run",
    intro: "No subscriptions and no credit packages.",
    features: [
      {
        icon: WalletIcon,
        title: "A price before every run",
        text: "About $2-15 per test depending on the models and the size of the test, with a $2.00 minimum. The server computes the price from current model prices, and that is what you pay.",
      },
      {
        icon: KeyRoundIcon,
        title: "Bring your own key",
        text: "Connect your own OpenRouter key under Usage in Account Settings: your tests then run on your key and ModelJury does not charge for them.",
      },
      {
        icon: LayersIcon,
        title: "Billing you can read",
        text: "Payment history and credit transactions on one page, each linked to the test it paid for.",
      },
    ],
  },
];

export function FeaturesPage() {
  return (
    <MarketingLayout>
      <PageIntro eyebrow="Features" title="Everything you need to choose a model with evidence">
        ModelJury runs the same inputs through several AI models, has other models judge the answers, and shows you the
        numbers.
      </PageIntro>
      <div className="mx-auto max-w-6xl space-y-16 px-4 py-14">
        {GROUPS.map((group) => (
          <section key={group.id} aria-labelledby={`features-${group.id}`}>
            <h2 id={`features-${group.id}`} className="text-2xl font-bold tracking-tight sm:text-3xl">
              {group.title}
            </h2>
            <p className="mt-2 max-w-2xl text-muted-foreground">{group.intro}</p>
            <ul className="mt-8 grid gap-4 md:grid-cols-3">
              {group.features.map(({ icon: Icon, title, text }) => (
                <li key={title} className="rounded-xl border bg-card p-6 shadow-sm">
                  <Icon aria-hidden="true" className="size-6 text-primary" />
                  <h3 className="mt-4 font-semibold">{title}</h3>
                  <p className="mt-1 text-sm text-muted-foreground">{text}</p>
                </li>
              ))}
            </ul>
          </section>
        ))}
        <section className="flex flex-col items-center gap-4 rounded-2xl bg-muted/50 px-6 py-12 text-center">
          <h2 className="text-2xl font-bold tracking-tight sm:text-3xl">Ready to find your model?</h2>
          <p className="max-w-xl text-muted-foreground">
            Create an account, build your first test and see the price before you run it.
          </p>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Link to="/signup" className={buttonVariants({ size: "lg" })}>
              Get started
            </Link>
            <Link to="/contact" className={buttonVariants({ variant: "outline", size: "lg" })}>
              Talk to us
            </Link>
          </div>
        </section>
      </div>
    </MarketingLayout>
  );
}

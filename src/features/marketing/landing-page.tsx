import type { InlineIcon } from "@/components/inline-icon";
import { buttonVariants } from "@/components/ui/button-variants";
import {
  ArrowRightIcon,
  BarChart3Icon,
  ClockIcon,
  CodeIcon,
  ColumnsIcon,
  FileTextIcon,
  GaugeIcon,
  ListChecksIcon,
  MessageCircleIcon,
  PenToolIcon,
  SettingsIcon,
  ShieldCheckIcon,
  TrendingUpIcon,
  TrophyIcon,
} from "@/features/marketing/icons";
import { MarketingLayout } from "@/features/marketing/marketing-layout";
import { MarketingLink } from "@/components/marketing-link";

interface Tile {
  icon: InlineIcon;
  title: string;
  text: string;
}

const USE_CASES: readonly Tile[] = [
  {
    icon: TrendingUpIcon,
    title: "Marketing Copy",
    text: "Headlines, ads and emails that convert, in your brand voice.",
  },
  { icon: CodeIcon, title: "Code Generation", text: "Which model writes correct, idiomatic code for your stack." },
  {
    icon: MessageCircleIcon,
    title: "Customer Service",
    text: "Helpful, accurate and polite answers to real customer questions.",
  },
  { icon: PenToolIcon, title: "Content Creation & SEO", text: "Articles and posts that read well and rank." },
  { icon: FileTextIcon, title: "Technical Documentation", text: "Clear, complete docs, guides and API references." },
  { icon: SettingsIcon, title: "Custom Evaluation", text: "Your own personas, topics, prompt and judging criteria." },
];

const PROMISES: readonly Tile[] = [
  {
    icon: GaugeIcon,
    title: "Quantitative metrics",
    text: "Response time, token usage and accuracy for every model, measured on every answer.",
  },
  {
    icon: ShieldCheckIcon,
    title: "Safety & hallucination testing",
    text: "Probe how models behave on tricky prompts and catch answers that make things up.",
  },
  {
    icon: ColumnsIcon,
    title: "Side-by-side comparison",
    text: "Several models answer the same inputs; read and rank their answers next to each other.",
  },
  {
    icon: ListChecksIcon,
    title: "Custom test suites",
    text: "Save personas, topics and templates, and rerun the same suite whenever models change.",
  },
  {
    icon: BarChart3Icon,
    title: "QA & performance analysis",
    text: "A jury of evaluator models ranks or scores each answer; see who wins per persona and topic.",
  },
];

const STEPS = [
  "Pick the models to compare, personas, topics and your prompt.",
  "See the price before you run: you pay per test.",
  "The models answer, then a jury of other models ranks the answers.",
  "Watch it live and read the results in 5-15 minutes.",
] as const;

/** The quantitative promises (spec part 1 §1, part 2 §1). */
const FIGURES = [
  { value: "10+", label: "models to compare" },
  { value: "$2-15", label: "per test, $2.00 minimum" },
  { value: "5-15 min", label: "to full results" },
  { value: "3", label: "metrics on every answer: time, tokens, accuracy" },
] as const;

const FAQ = [
  {
    question: "What is a query?",
    answer:
      "One prompt sent to one model, plus its response. A test makes models × personas × topics queries, then the evaluator models judge the answers.",
  },
  {
    question: "How do I keep the cost down?",
    answer:
      "Use fewer personas, topics, models or responses per topic. A bar at the bottom of the setup page always shows the estimated price.",
  },
  {
    question: "Can I use my own OpenRouter key?",
    answer:
      "Yes. Connect it under Usage in your account settings: tests then run on your key and ModelJury does not charge for them.",
  },
  {
    question: "Do I need a subscription?",
    answer:
      "No. There are no subscriptions and no credit packages: you pay for each test you run, and you see the price first.",
  },
] as const;

export function LandingPage() {
  return (
    <MarketingLayout>
      <section className="mx-auto max-w-6xl px-4 pt-16 pb-20 text-center sm:pt-24">
        <MarketingLink
          to="/awards"
          className="mx-auto inline-flex items-center gap-2 rounded-full border border-amber-500/40 bg-amber-500/10 px-3 py-1 text-sm font-medium text-amber-800 transition-colors hover:bg-amber-500/20 dark:text-amber-300"
        >
          <TrophyIcon className="size-4" aria-hidden="true" />
          7th place at a hackathon
        </MarketingLink>
        <h1 className="mx-auto mt-6 max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-6xl">
          Find the right AI model for the job
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-balance text-muted-foreground">
          ModelJury runs your prompt through several AI models on identical inputs, has other models judge the answers,
          and shows you which one to use, with the numbers to back it up.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <MarketingLink to="/signup" className={buttonVariants({ size: "lg" })}>
            Start comparing <ArrowRightIcon />
          </MarketingLink>
          <MarketingLink to="/features" className={buttonVariants({ variant: "outline", size: "lg" })}>
            Learn more
          </MarketingLink>
        </div>
      </section>

      <section aria-label="At a glance" className="border-t">
        <ul className="mx-auto grid max-w-6xl grid-cols-2 gap-6 px-4 py-10 lg:grid-cols-4">
          {FIGURES.map(({ value, label }) => (
            <li key={label} className="text-center">
              <p className="text-3xl font-bold tracking-tight sm:text-4xl">{value}</p>
              <p className="mt-1 text-sm text-muted-foreground">{label}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="use-cases" className="border-t bg-muted/40">
        <div className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="use-cases" className="text-center text-3xl font-bold tracking-tight">
            Built for your use case
          </h2>
          <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {USE_CASES.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-xl border bg-card p-6 shadow-sm">
                <Icon className="size-6 text-primary" aria-hidden="true" />
                <h3 className="mt-4 font-semibold">{title}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="promises" className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="promises" className="text-center text-3xl font-bold tracking-tight">
          Evidence, not vibes
        </h2>
        <ul className="mt-10 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
          {PROMISES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-4">
              <div className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground">
                <Icon className="size-5" aria-hidden="true" />
              </div>
              <div>
                <h3 className="font-semibold">{title}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{text}</p>
              </div>
            </li>
          ))}
        </ul>
        <ol className="mx-auto mt-16 grid max-w-4xl gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map((step, index) => (
            <li key={step} className="rounded-lg border p-4 text-sm">
              <span className="block text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                Step {index + 1}
              </span>
              <span className="mt-1 block">{step}</span>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="pricing" className="border-t bg-muted/40">
        <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 lg:grid-cols-2 lg:items-center">
          <div>
            <h2 id="pricing" className="text-3xl font-bold tracking-tight">
              Pay per test
            </h2>
            <p className="mt-4 text-lg text-muted-foreground">
              Pay as you go: no subscriptions and no credit packages. You see the price before every run.
            </p>
          </div>
          <div className="rounded-xl border bg-card p-8 shadow-sm">
            <p className="text-sm text-muted-foreground">Typical test</p>
            <p className="mt-1 text-4xl font-bold tracking-tight">about $2-15</p>
            <p className="mt-2 text-sm text-muted-foreground">
              depending on the models selected and test complexity, with a $2.00 minimum per test.
            </p>
            <p className="mt-6 flex items-center gap-2 text-sm font-medium">
              <ClockIcon className="size-4" aria-hidden="true" /> Results in 5-15 minutes
            </p>
            <MarketingLink to="/signup" className={buttonVariants({ className: "mt-8 w-full" })}>
              Get started
            </MarketingLink>
          </div>
        </div>
      </section>

      <section aria-labelledby="faq" className="mx-auto max-w-4xl px-4 py-16">
        <h2 id="faq" className="text-center text-3xl font-bold tracking-tight">
          Questions
        </h2>
        <dl className="mt-10 grid gap-8 sm:grid-cols-2">
          {FAQ.map(({ question, answer }) => (
            <div key={question}>
              <dt className="font-semibold">{question}</dt>
              <dd className="mt-1 text-sm text-muted-foreground">{answer}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-12 text-center text-sm text-muted-foreground">
          More in{" "}
          <MarketingLink to="/features" className="font-medium text-foreground underline-offset-4 hover:underline">
            all features
          </MarketingLink>
          , the story{" "}
          <MarketingLink to="/about" className="font-medium text-foreground underline-offset-4 hover:underline">
            about us
          </MarketingLink>
          , or{" "}
          <MarketingLink to="/contact" className="font-medium text-foreground underline-offset-4 hover:underline">
            ask us anything
          </MarketingLink>
          .
        </p>
      </section>
    </MarketingLayout>
  );
}

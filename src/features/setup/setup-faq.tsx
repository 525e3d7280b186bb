import { Link } from "@tanstack/react-router";
import { ChevronDownIcon } from "lucide-react";
import type { ReactNode } from "react";

const QUESTIONS: readonly { question: string; answer: ReactNode }[] = [
  {
    question: "What counts as a query?",
    answer:
      "One query is one prompt sent to a model plus its response. Every generator model answers every persona and topic pair, so a test makes models × personas × topics generation queries; the evaluators then judge the responses.",
  },
  {
    question: "How can I control the cost?",
    answer:
      "The price grows with the number of personas, topics, models and responses per topic. Limit any of them to bring it down, or pick models from a cheaper tier; each model shows what it adds to the price.",
  },
  {
    question: "Where do I see what a test will cost?",
    answer:
      "The bar at the bottom of this page always shows the estimated price and time of the test as configured. It updates with every change, and it is exactly what you are charged.",
  },
  {
    question: "What if some model calls fail?",
    answer:
      "A call is retried before it is given up. Answers or judgements that never arrive are shown as missing on the monitor, results, history and shared page, with the last gateway error, and a finished test shows how much of what you paid for it delivered. A test's cost counts every reply the gateway charged for, including one that arrived too late to be used.",
  },
  {
    question: "Can I use my own OpenRouter key?",
    answer: (
      <>
        Yes. Connect your own OpenRouter API key in the usage section of{" "}
        <Link to="/dashboard/settings" className="font-medium text-primary underline-offset-4 hover:underline">
          Account Settings
        </Link>{" "}
        (in the user menu). Your tests then run on your key and are not charged here.
      </>
    ),
  },
];

/** The FAQ below the setup (spec part 1 §1). */
export function SetupFaq() {
  return (
    <section aria-labelledby="setup-faq-heading" className="space-y-3" data-testid="setup-faq">
      <h2 id="setup-faq-heading" className="text-xl font-semibold">
        Frequently Asked Questions
      </h2>
      <div className="divide-y rounded-xl border bg-card">
        {QUESTIONS.map(({ question, answer }) => (
          <details key={question} className="group px-4 py-3">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-3 font-medium [&::-webkit-details-marker]:hidden">
              {question}
              <ChevronDownIcon
                aria-hidden="true"
                className="size-4 text-muted-foreground transition-transform group-open:rotate-180"
              />
            </summary>
            <p className="mt-2 text-sm text-muted-foreground">{answer}</p>
          </details>
        ))}
      </div>
    </section>
  );
}

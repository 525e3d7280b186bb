import { ClockIcon, MailIcon, MessageCircleQuestionIcon } from "lucide-react";

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { MarketingLayout, PageIntro } from "@/features/marketing/marketing-layout";
import { ContactForm } from "./contact-form";

const FAQ: readonly { question: string; answer: string }[] = [
  {
    question: "How quickly will you reply?",
    answer: "We answer every message within 24 hours, usually much sooner on working days.",
  },
  {
    question: "How much does a test cost?",
    answer:
      "You pay per test, with no subscription: typically about $2-15 depending on the models you pick and the size of the test, with a $2.00 minimum. You see the exact price before you run.",
  },
  {
    question: "Can I use my own OpenRouter key?",
    answer:
      "Yes. Save it under Usage in Account Settings. Tests then run on your key, the gateway bills you directly, and ModelJury does not charge for those runs.",
  },
  {
    question: "Is my data used to train models?",
    answer:
      "Your prompts go only to the models you select, through the model gateway. We do not sell or share your tests, and you can delete them at any time.",
  },
  {
    question: "I found a bug. What helps you most?",
    answer:
      "Choose Bug Report, and tell us what you did, what you expected and what happened instead. A test name or ID helps too.",
  },
];

export function ContactPage() {
  return (
    <MarketingLayout>
      <PageIntro eyebrow="Contact" title="Get in touch">
        Questions about a test, billing or a partnership? Send us a message.
      </PageIntro>
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <MailIcon aria-hidden="true" className="size-4 text-primary" />
              <h2>Send a message</h2>
            </CardTitle>
            <CardDescription>All fields are required.</CardDescription>
          </CardHeader>
          <CardContent className="relative">
            <ContactForm />
          </CardContent>
        </Card>
        <aside className="space-y-6">
          <div className="flex gap-3 rounded-xl border p-5">
            <ClockIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-primary" />
            <div>
              <p className="font-semibold">Replies within 24 hours</p>
              <p className="text-sm text-muted-foreground">A person reads every message.</p>
            </div>
          </div>
          <section aria-labelledby="contact-faq">
            <h2 id="contact-faq" className="flex items-center gap-2 text-lg font-semibold">
              <MessageCircleQuestionIcon aria-hidden="true" className="size-5 text-primary" />
              Frequently asked questions
            </h2>
            <div className="mt-3 divide-y rounded-xl border">
              {FAQ.map(({ question, answer }) => (
                <details key={question} className="group px-4 py-3">
                  <summary className="cursor-pointer list-none text-sm font-medium marker:hidden">
                    <span className="flex items-center justify-between gap-2">
                      {question}
                      <span
                        aria-hidden="true"
                        className="text-muted-foreground transition-transform group-open:rotate-45"
                      >
                        +
                      </span>
                    </span>
                  </summary>
                  <p className="mt-2 text-sm text-muted-foreground">{answer}</p>
                </details>
              ))}
            </div>
          </section>
        </aside>
      </div>
    </MarketingLayout>
  );
}

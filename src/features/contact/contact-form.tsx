import { useMutation } from "convex/react";
import { SendIcon } from "lucide-react";
import { useState, type FormEvent } from "react";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { Banner } from "@/components/banner";
import { errorMessage } from "@/lib/errors";
import { cn } from "@/lib/utils";
import { api } from "../../../convex/_generated/api";
import { CONTACT_LIMITS, CONTACT_MESSAGE_COUNTER, CONTACT_SUBJECTS, validateContact } from "../../../convex/lib/contact";

type Field = "name" | "email" | "subject" | "message";
type Values = Record<Field, string> & { website: string };
type Status = { state: "idle" } | { state: "sending" } | { state: "success" } | { state: "error"; message: string };

const EMPTY: Values = { name: "", email: "", subject: "", message: "", website: "" };

export const CONTACT_SUCCESS = "Message sent successfully!";
export const CONTACT_SUCCESS_DETAIL = "We'll get back to you within 24 hours.";
export const CONTACT_FAILURE = "Failed to send message";

const fieldClass = "grid gap-2";

export function ContactForm() {
  const submit = useMutation(api.contact.submit);
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [status, setStatus] = useState<Status>({ state: "idle" });
  const sending = status.state === "sending";

  function change(field: keyof Values, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (field !== "website" && errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  async function send(event: FormEvent) {
    event.preventDefault();
    const problems = validateContact(values);
    setErrors(Object.fromEntries(problems.map((problem) => [problem.field, problem.message])));
    if (problems.length > 0) {
      setStatus({ state: "idle" });
      return;
    }
    setStatus({ state: "sending" });
    try {
      await submit({
        name: values.name,
        email: values.email,
        subject: values.subject,
        message: values.message,
        website: values.website,
      });
      setValues(EMPTY);
      setStatus({ state: "success" });
    } catch (error) {
      setStatus({ state: "error", message: errorMessage(error, CONTACT_FAILURE) });
    }
  }

  const describe = (field: Field, extra?: string) =>
    [errors[field] ? `contact-${field}-error` : null, extra].filter(Boolean).join(" ") || undefined;
  const error = (field: Field) =>
    errors[field] ? (
      <p id={`contact-${field}-error`} className="text-sm text-destructive">
        {errors[field]}
      </p>
    ) : null;

  const length = values.message.length;
  return (
    <form noValidate onSubmit={(event) => void send(event)} className="grid gap-5" aria-label="Contact form">
      {status.state === "success" && (
        <Banner tone="success">
          <p className="font-medium">{CONTACT_SUCCESS}</p>
          <p>{CONTACT_SUCCESS_DETAIL}</p>
        </Banner>
      )}
      {status.state === "error" && (
        <Banner tone="error">
          <p className="font-medium">{CONTACT_FAILURE}</p>
          {status.message !== CONTACT_FAILURE && <p>{status.message}</p>}
        </Banner>
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <div className={fieldClass}>
          <Label htmlFor="contact-name">Name</Label>
          <Input
            id="contact-name"
            autoComplete="name"
            maxLength={CONTACT_LIMITS.maxNameLength}
            value={values.name}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describe("name")}
            onChange={(event) => change("name", event.target.value)}
          />
          {error("name")}
        </div>
        <div className={fieldClass}>
          <Label htmlFor="contact-email">Email</Label>
          <Input
            id="contact-email"
            type="email"
            autoComplete="email"
            maxLength={CONTACT_LIMITS.maxEmailLength}
            value={values.email}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={describe("email")}
            onChange={(event) => change("email", event.target.value)}
          />
          {error("email")}
        </div>
      </div>
      <div className={fieldClass}>
        <Label htmlFor="contact-subject">Subject</Label>
        {/* A native select: light, and right on phones. */}
        <select
          id="contact-subject"
          value={values.subject}
          aria-invalid={errors.subject ? true : undefined}
          aria-describedby={describe("subject")}
          onChange={(event) => change("subject", event.target.value)}
          className={cn(
            "h-9 w-full rounded-md border border-input bg-transparent px-3 text-base shadow-xs outline-none md:text-sm dark:bg-input/30",
            "focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive",
            values.subject === "" && "text-muted-foreground",
          )}
        >
          <option value="" disabled>
            Select a subject
          </option>
          {CONTACT_SUBJECTS.map((subject) => (
            <option key={subject} value={subject} className="text-foreground">
              {subject}
            </option>
          ))}
        </select>
        {error("subject")}
      </div>
      <div className={fieldClass}>
        <Label htmlFor="contact-message">Message</Label>
        <Textarea
          id="contact-message"
          rows={6}
          className="min-h-36"
          value={values.message}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={describe("message", "contact-message-counter")}
          onChange={(event) => change("message", event.target.value)}
        />
        <div className="flex items-start justify-between gap-3">
          <div>{error("message")}</div>
          <p
            id="contact-message-counter"
            data-testid="message-counter"
            className={cn("shrink-0 text-xs tabular-nums", length > CONTACT_MESSAGE_COUNTER ? "text-amber-600" : "text-muted-foreground")}
          >
            {length}/{CONTACT_MESSAGE_COUNTER}
          </p>
        </div>
      </div>
      {/* The honeypot: hidden from people and assistive technology, filled in by form bots. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor="contact-website">Website</label>
        <input
          id="contact-website"
          name="website"
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={values.website}
          onChange={(event) => change("website", event.target.value)}
        />
      </div>
      <div>
        <Button type="submit" disabled={sending} className="w-full sm:w-auto">
          {sending ? <Spinner className="text-current" label="Sending" /> : <SendIcon />}
          {sending ? "Sending..." : "Send Message"}
        </Button>
      </div>
    </form>
  );
}

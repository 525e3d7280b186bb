import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "convex/react";
import { SendIcon } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";

import { EmailField } from "@/components/form-fields";
import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { Banner } from "@/components/banner";
import { errorMessage } from "@/lib/errors";
import { cn } from "@/lib/utils";
import { api } from "../../../convex/_generated/api";
import { CONTACT_LIMITS, CONTACT_MESSAGE_COUNTER, CONTACT_SUBJECTS, contactSchema } from "../../../convex/lib/contact";

// The server's schema (convex/lib/contact) plus the honeypot, which is sent as typed, unchecked.
const formSchema = contactSchema.extend({ website: z.string() });
type Values = z.input<typeof formSchema>;
type Parsed = z.output<typeof formSchema>;
type Status = { state: "idle" } | { state: "error"; message: string } | { state: "success" };

const EMPTY: Values = { name: "", email: "", subject: "", message: "", website: "" };

export const CONTACT_SUCCESS = "Message sent successfully!";
export const CONTACT_SUCCESS_DETAIL = "We'll get back to you within 24 hours.";
export const CONTACT_FAILURE = "Failed to send message";

export function ContactForm() {
  const submit = useMutation(api.contact.submit);
  const form = useForm<Values, unknown, Parsed>({ resolver: zodResolver(formSchema), defaultValues: EMPTY });
  const [status, setStatus] = useState<Status>({ state: "idle" });
  const sending = form.formState.isSubmitting;

  async function send(values: Parsed) {
    setStatus({ state: "idle" });
    try {
      await submit(values);
      form.reset(EMPTY);
      setStatus({ state: "success" });
    } catch (error) {
      setStatus({ state: "error", message: errorMessage(error, CONTACT_FAILURE) });
    }
  }

  const length = form.watch("message").length;
  return (
    <Form {...form}>
      <form
        noValidate
        onSubmit={(event) => void form.handleSubmit(send, () => setStatus({ state: "idle" }))(event)}
        className="grid gap-5"
        aria-label="Contact form"
      >
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
          <FormField
            control={form.control}
            name="name"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Name</FormLabel>
                <FormControl>
                  <Input autoComplete="name" maxLength={CONTACT_LIMITS.maxNameLength} {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <EmailField control={form.control} name="email" maxLength={CONTACT_LIMITS.maxEmailLength} />
        </div>
        <FormField
          control={form.control}
          name="subject"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Subject</FormLabel>
              <FormControl>
                {/* A native select: light, and right on phones. */}
                <select
                  {...field}
                  className={cn(
                    "h-9 w-full rounded-md border border-input bg-transparent px-3 text-base shadow-xs outline-none md:text-sm dark:bg-input/30",
                    "focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive",
                    field.value === "" && "text-muted-foreground",
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
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="message"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Message</FormLabel>
              <FormControl>
                <Textarea rows={6} className="min-h-36" {...field} />
              </FormControl>
              <div className="flex items-start justify-between gap-3">
                <FormMessage />
                <p
                  data-testid="message-counter"
                  className={cn(
                    "ml-auto shrink-0 text-xs tabular-nums",
                    length > CONTACT_MESSAGE_COUNTER ? "text-amber-600" : "text-muted-foreground",
                  )}
                >
                  {length}/{CONTACT_MESSAGE_COUNTER}
                </p>
              </div>
            </FormItem>
          )}
        />
        {/* The honeypot: hidden from people and assistive technology, filled in by form bots. */}
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor="contact-website">Website</label>
          <input id="contact-website" type="text" tabIndex={-1} autoComplete="off" {...form.register("website")} />
        </div>
        <div>
          <Button type="submit" disabled={sending} className="w-full sm:w-auto">
            {sending ? <Spinner className="text-current" label="Sending" /> : <SendIcon />}
            {sending ? "Sending..." : "Send Message"}
          </Button>
        </div>
      </form>
    </Form>
  );
}

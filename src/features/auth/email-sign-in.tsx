import { CheckCircle2Icon, MailIcon } from "lucide-react";
import { useState } from "react";
import { z } from "zod";

import { CodeField, EmailField } from "@/components/form-fields";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { AuthCard, BackToSignIn } from "@/features/auth/auth-card";
import { AuthForm } from "@/features/auth/auth-form";
import { withDevice } from "@/features/auth/device";
import { useAuthForm } from "@/features/auth/use-auth-form";
import { codeField, emailField } from "@/features/auth/schemas";

/** Spec part 1 §8. */
export const MAGIC_LINK_SENT_MESSAGE = "Check your email for the magic link";
/** The magic-link form's message for an empty email (spec part 1 §5: "a configured message"). */
export const EMPTY_EMAIL_MESSAGE = "Please enter your email address.";

const emailSchema = z.object({ email: z.string().trim().min(1, EMPTY_EMAIL_MESSAGE).pipe(emailField) });
type EmailValues = z.infer<typeof emailSchema>;
const codeSchema = z.object({ code: codeField });
type CodeValues = z.infer<typeof codeSchema>;

/**
 * Sign-in without a password, offered when the deployment can send email: a magic link
 * (provider `magic-link`) or a six-digit code (provider `email-code`). The magic link comes
 * back to /login?code=…, which the auth client turns into a session.
 */
export function EmailSignIn({
  kind,
  redirect,
  onBack,
}: {
  kind: "magic_link" | "code";
  redirect?: string;
  onBack: () => void;
}) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const title = kind === "magic_link" ? "Sign in with a magic link" : "Sign in with a code";
  return (
    <AuthCard
      icon={MailIcon}
      title={title}
      description={
        sentTo !== null
          ? undefined
          : kind === "magic_link"
            ? "We will email you a link that signs you in."
            : "We will email you a six-digit code."
      }
      footer={<BackToSignIn onBack={onBack} />}
    >
      {sentTo === null ? (
        <RequestForm kind={kind} redirect={redirect} onSent={setSentTo} />
      ) : kind === "magic_link" ? (
        <Alert variant="success" data-testid="magic-link-sent">
          <CheckCircle2Icon />
          <AlertDescription>{MAGIC_LINK_SENT_MESSAGE}</AlertDescription>
        </Alert>
      ) : (
        <CodeForm email={sentTo} />
      )}
    </AuthCard>
  );
}

function RequestForm({
  kind,
  redirect,
  onSent,
}: {
  kind: "magic_link" | "code";
  redirect?: string;
  onSent: (email: string) => void;
}) {
  const { form, serverError, onSubmit, submitting } = useAuthForm<EmailValues>(
    emailSchema,
    { email: "" },
    async ({ email }, signIn) => {
      const address = email.toLowerCase();
      if (kind === "magic_link") {
        const back = redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : "/login";
        await signIn("magic-link", { email: address, redirectTo: back });
      } else {
        await signIn("email-code", { email: address });
      }
      onSent(address);
    },
  );
  return (
    <AuthForm
      {...{ form, onSubmit, submitting, serverError }}
      busyLabel="Sending"
      submitLabel={kind === "magic_link" ? "Send Magic Link" : "Send Code"}
    >
      <EmailField control={form.control} name="email" />
    </AuthForm>
  );
}

function CodeForm({ email }: { email: string }) {
  const { form, serverError, onSubmit, submitting } = useAuthForm<CodeValues>(
    codeSchema,
    { code: "" },
    async ({ code }, signIn) => {
      await signIn("email-code", withDevice({ email, code }));
      // The session arrives and AuthLayout moves on.
    },
  );
  return (
    <AuthForm {...{ form, onSubmit, submitting, serverError }} busyLabel="Signing in" submitLabel="Sign In">
      <p className="text-sm text-muted-foreground">
        We sent a code to <span className="font-medium text-foreground">{email}</span>. It expires in 15 minutes.
      </p>
      <CodeField control={form.control} name="code" label="Sign-in code" />
    </AuthForm>
  );
}

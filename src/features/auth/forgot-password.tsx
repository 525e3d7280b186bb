import { useQuery } from "convex/react";
import { CheckCircle2Icon, InfoIcon, KeyRoundIcon } from "lucide-react";
import { useState, type ReactNode } from "react";
import { toast } from "sonner";
import { z } from "zod";

import { CodeField, EmailField } from "@/components/form-fields";
import { Spinner } from "@/components/spinner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { AuthCard, BackToSignIn } from "@/features/auth/auth-card";
import { AuthForm } from "@/features/auth/auth-form";
import { isUnknownAccountError } from "@/features/auth/auth-errors";
import { useAuthForm } from "@/features/auth/use-auth-form";
import { withDevice } from "@/features/auth/device";
import { checkedNewPasswordField, codeField, emailField, PASSWORD_HINT } from "@/features/auth/schemas";
import { api } from "../../../convex/_generated/api";

export const EMAIL_NOT_CONFIGURED_MESSAGE =
  "Password reset by email is not available: this deployment has no email sender configured. Ask an administrator to reset your password.";
/**
 * Spec part 1 §8 says "…password reset link": the original emailed a link, this build emails a
 * six-digit code (ARCHITECTURE §1, auth), so the sentence names what the email carries.
 */
export const RESET_REQUESTED_MESSAGE = "Check your email for the password reset code";
export const PASSWORD_UPDATED_MESSAGE = "Your password has been updated";

const requestSchema = z.object({ email: emailField });
type RequestValues = z.infer<typeof requestSchema>;
const resetSchema = z.object({ code: codeField, newPassword: checkedNewPasswordField });
type ResetValues = z.infer<typeof resetSchema>;

/** The forgotten-password view: request a one-time code by email, then set a new password. */
export function ForgotPassword({ onBack }: { onBack: () => void }) {
  const options = useQuery(api.users.authOptions);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [updated, setUpdated] = useState(false);

  let body: ReactNode;
  if (options === undefined) {
    body = (
      <div className="flex justify-center py-6">
        <Spinner className="size-6" />
      </div>
    );
  } else if (!options.emailEnabled) {
    body = (
      <Alert data-testid="reset-unavailable">
        <InfoIcon />
        <AlertTitle>Email is not configured</AlertTitle>
        <AlertDescription>{EMAIL_NOT_CONFIGURED_MESSAGE}</AlertDescription>
      </Alert>
    );
  } else if (updated) {
    body = (
      <Alert variant="success">
        <CheckCircle2Icon />
        <AlertDescription>{PASSWORD_UPDATED_MESSAGE}</AlertDescription>
      </Alert>
    );
  } else if (sentTo === null) {
    body = <RequestCodeForm onSent={setSentTo} />;
  } else {
    body = <ResetPasswordForm email={sentTo} onUpdated={() => setUpdated(true)} onRestart={() => setSentTo(null)} />;
  }

  return (
    <AuthCard
      icon={KeyRoundIcon}
      title="Reset your password"
      description={
        options?.emailEnabled && sentTo === null && !updated
          ? "Enter your email and we will send you a code to set a new password."
          : undefined
      }
      footer={<BackToSignIn onBack={onBack} />}
    >
      {body}
    </AuthCard>
  );
}

function RequestCodeForm({ onSent }: { onSent: (email: string) => void }) {
  const { form, serverError, onSubmit, submitting } = useAuthForm<RequestValues>(
    requestSchema,
    { email: "" },
    async ({ email }, signIn) => {
      try {
        await signIn("password", { email, flow: "reset" });
      } catch (error) {
        // Same answer whether or not the account exists, so the form cannot be used to probe emails.
        if (!isUnknownAccountError(error)) throw error;
      }
      onSent(email);
    },
  );
  return (
    <AuthForm {...{ form, onSubmit, submitting, serverError }} busyLabel="Sending" submitLabel="Send Reset Code">
      <EmailField control={form.control} name="email" />
    </AuthForm>
  );
}

function ResetPasswordForm({
  email,
  onUpdated,
  onRestart,
}: {
  email: string;
  onUpdated: () => void;
  onRestart: () => void;
}) {
  const { form, serverError, onSubmit, submitting } = useAuthForm<ResetValues>(
    resetSchema,
    { code: "", newPassword: "" },
    async ({ code, newPassword }, signIn) => {
      await signIn("password", withDevice({ email, code, newPassword, flow: "reset-verification" }));
      toast.success(PASSWORD_UPDATED_MESSAGE);
      onUpdated();
    },
  );
  return (
    <div className="grid gap-4">
      <Alert data-testid="reset-requested">
        <InfoIcon />
        <AlertTitle className="line-clamp-none">{RESET_REQUESTED_MESSAGE}</AlertTitle>
        <AlertDescription>
          <p>
            If an account exists for <strong className="text-foreground">{email}</strong>, we sent it a 6-digit code.
            Enter the code and your new password below.
          </p>
        </AlertDescription>
      </Alert>
      <AuthForm
        {...{ form, onSubmit, submitting, serverError }}
        busyLabel="Updating password"
        submitLabel="Update Password"
      >
        <CodeField control={form.control} name="code" label="Code" />
        <FormField
          control={form.control}
          name="newPassword"
          render={({ field }) => (
            <FormItem>
              <FormLabel>New password</FormLabel>
              <FormControl>
                <Input type="password" autoComplete="new-password" {...field} />
              </FormControl>
              <FormDescription>{PASSWORD_HINT}</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
      </AuthForm>
      <Button type="button" variant="link" size="sm" onClick={onRestart}>
        Use a different email
      </Button>
    </div>
  );
}

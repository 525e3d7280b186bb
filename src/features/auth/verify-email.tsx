import { Link } from "@tanstack/react-router";
import { MailCheckIcon } from "lucide-react";
import { z } from "zod";

import { CodeField } from "@/components/form-fields";
import { Button } from "@/components/ui/button";
import { AuthCard, BackToSignIn } from "@/features/auth/auth-card";
import { AuthForm } from "@/features/auth/auth-form";
import { withDevice } from "@/features/auth/device";
import { useAuthForm } from "@/features/auth/use-auth-form";
import { codeField } from "@/features/auth/schemas";

const verifySchema = z.object({ code: codeField });
type VerifyValues = z.infer<typeof verifySchema>;

interface VerifyEmailProps {
  email: string;
  /** Where 'Back to Sign In' leads when already on /login; a link to /login otherwise. */
  onBack?: () => void;
  redirect: string | undefined;
}

/**
 * The 'Check Your Email' screen after a sign-up (or sign-in) that needs email verification.
 * The email carries a one-time code rather than a link; entering it signs the user in.
 */
export function VerifyEmail({ email, onBack, redirect }: VerifyEmailProps) {
  const { form, serverError, onSubmit, submitting } = useAuthForm<VerifyValues>(
    verifySchema,
    { code: "" },
    async ({ code }, signIn) => {
      await signIn("password", withDevice({ email, code, flow: "email-verification" }));
    },
  );
  return (
    <AuthCard
      icon={MailCheckIcon}
      title="Check Your Email"
      description={
        <>
          We sent a verification email to <strong className="text-foreground">{email}</strong>. Check your email for the
          confirmation code and enter it below to activate your account.
        </>
      }
      footer={
        onBack ? (
          <BackToSignIn onBack={onBack} />
        ) : (
          <Button variant="outline" className="w-full" asChild>
            <Link to="/login" search={{ redirect }}>
              Back to Sign In
            </Link>
          </Button>
        )
      }
    >
      <AuthForm {...{ form, onSubmit, submitting, serverError }} busyLabel="Verifying" submitLabel="Verify Email">
        <CodeField control={form.control} name="code" label="Verification code" />
      </AuthForm>
      <p className="mt-4 text-sm text-muted-foreground">
        Didn&apos;t receive it? Check your spam folder, or sign up with a different email.
      </p>
    </AuthCard>
  );
}

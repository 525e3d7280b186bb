import { useAuthActions } from "@convex-dev/auth/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";

import { SubmitButton } from "@/components/form-fields";
import { Form } from "@/components/ui/form";
import { authErrorMessage } from "@/features/auth/auth-errors";
import { CredentialsFields } from "@/features/auth/credentials-fields";
import { FormError } from "@/features/auth/form-error";
import { withDevice } from "@/features/auth/device";
import { PASSWORD_HINT, PASSWORD_RULES, signUpSchema, type Credentials } from "@/features/auth/schemas";

interface SignUpFormProps {
  /** The account exists but has no session yet: a verification code was emailed. */
  onVerificationNeeded: (email: string) => void;
}

export function SignUpForm({ onVerificationNeeded }: SignUpFormProps) {
  const { signIn } = useAuthActions();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<Credentials>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { email: "", password: "" },
  });

  async function submit({ email, password }: Credentials) {
    setServerError(null);
    try {
      const { signingIn } = await signIn("password", withDevice({ email, password, flow: "signUp" }));
      if (!signingIn) onVerificationNeeded(email);
    } catch (error) {
      setServerError(authErrorMessage(error));
    }
  }

  const submitting = form.formState.isSubmitting;
  return (
    <Form {...form}>
      <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)} className="grid gap-4">
        <CredentialsFields
          control={form.control}
          passwordAutoComplete="new-password"
          passwordPlaceholder={`At least ${PASSWORD_RULES.minLength} characters`}
          passwordHint={PASSWORD_HINT}
        />
        <SubmitButton submitting={submitting} busyLabel="Creating your account">
          Sign Up
        </SubmitButton>
        <FormError message={serverError} />
      </form>
    </Form>
  );
}

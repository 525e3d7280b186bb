import { useAuthActions } from "@convex-dev/auth/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";

import { SubmitButton } from "@/components/form-fields";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { authErrorMessage } from "@/features/auth/auth-errors";
import { CredentialsFields } from "@/features/auth/credentials-fields";
import { FormError } from "@/features/auth/form-error";
import { withDevice } from "@/features/auth/device";
import { credentialsSchema, type Credentials } from "@/features/auth/schemas";

interface SignInFormProps {
  /** The account's email is not verified yet: the server has sent a code. */
  onVerificationNeeded: (email: string) => void;
  onForgotPassword: () => void;
}

export function SignInForm({ onVerificationNeeded, onForgotPassword }: SignInFormProps) {
  const { signIn } = useAuthActions();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<Credentials>({
    resolver: zodResolver(credentialsSchema),
    defaultValues: { email: "", password: "" },
  });

  async function submit({ email, password }: Credentials) {
    setServerError(null);
    try {
      const { signingIn } = await signIn("password", withDevice({ email, password, flow: "signIn" }));
      if (!signingIn) onVerificationNeeded(email);
      // Otherwise the session arrives and AuthLayout moves on.
    } catch (error) {
      setServerError(authErrorMessage(error));
    }
  }

  const submitting = form.formState.isSubmitting;
  return (
    <Form {...form}>
      <form noValidate onSubmit={(event) => void form.handleSubmit(submit)(event)} className="grid gap-4">
        <CredentialsFields control={form.control} passwordAutoComplete="current-password" />
        <div className="-mt-2 flex justify-end">
          <Button type="button" variant="link" size="sm" className="h-auto px-0" onClick={onForgotPassword}>
            Forgot your password?
          </Button>
        </div>
        <SubmitButton submitting={submitting} busyLabel="Signing in">
          Sign In
        </SubmitButton>
        <FormError message={serverError} />
      </form>
    </Form>
  );
}

import { useAuthActions } from "@convex-dev/auth/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";

import { authErrorMessage } from "@/features/auth/auth-errors";
import { withDevice } from "@/features/auth/device";
import { credentialsSchema, signUpSchema, type Credentials } from "@/features/auth/schemas";

/**
 * The email-and-password form of Sign In and Sign Up: the flow's rules (a new password follows
 * the password rule), this browser's id on the call, the server's error for the danger box, and
 * `onVerificationNeeded` when the account must first enter an emailed code. When a session
 * arrives instead, AuthLayout moves on.
 */
export function useCredentialsForm(flow: "signIn" | "signUp", onVerificationNeeded: (email: string) => void) {
  const { signIn } = useAuthActions();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<Credentials>({
    resolver: zodResolver(flow === "signUp" ? signUpSchema : credentialsSchema),
    defaultValues: { email: "", password: "" },
  });

  async function submit({ email, password }: Credentials) {
    setServerError(null);
    try {
      const { signingIn } = await signIn("password", withDevice({ email, password, flow }));
      if (!signingIn) onVerificationNeeded(email);
    } catch (error) {
      setServerError(authErrorMessage(error));
    }
  }

  return { form, serverError, onSubmit: form.handleSubmit(submit), submitting: form.formState.isSubmitting };
}

import { useAuthActions } from "@convex-dev/auth/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm, type DefaultValues, type FieldValues } from "react-hook-form";
import type { z } from "zod";

import { authErrorMessage } from "@/features/auth/auth-errors";

type SignIn = ReturnType<typeof useAuthActions>["signIn"];

/**
 * An auth form: the schema's rules under the fields, `send` called with the checked values and
 * Convex Auth's signIn, and what the server refused for the danger box under the form (FormError).
 */
export function useAuthForm<T extends FieldValues>(
  schema: z.ZodType<T, T>,
  defaultValues: DefaultValues<T>,
  send: (values: T, signIn: SignIn) => Promise<void>,
) {
  const { signIn } = useAuthActions();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<T>({ resolver: zodResolver(schema), defaultValues });

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await send(values, signIn);
    } catch (error) {
      setServerError(authErrorMessage(error));
    }
  });

  return { form, serverError, onSubmit, submitting: form.formState.isSubmitting };
}

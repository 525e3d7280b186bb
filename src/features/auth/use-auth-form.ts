import { useAuthActions } from "@convex-dev/auth/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm, type DefaultValues, type FieldValues, type Path } from "react-hook-form";
import type { z } from "zod";

import { authErrorMessage } from "@/features/auth/auth-errors";
import { appErrorData } from "@/lib/errors";
import { asServerFailureReason } from "../../../convex/lib/serverFailure";

type SignIn = ReturnType<typeof useAuthActions>["signIn"];

/**
 * The form field a server refusal names (ConvexError data.field), if the form has it. The server
 * names a new password "password" on sign-up and reset alike; the reset form calls it newPassword.
 */
export function serverFieldOf(error: unknown, fields: readonly string[]): string | null {
  const field = appErrorData(error) ? (error as { data?: { field?: unknown } }).data?.field : undefined;
  if (typeof field !== "string") return null;
  if (fields.includes(field)) return field;
  return field === "password" && fields.includes("newPassword") ? "newPassword" : null;
}

/**
 * Convex Auth's signIn, tried once more when the server failed for a reason of its own (a time-out,
 * a conflict: it wrote nothing), before the user sees "Signing in failed". The retry names the
 * reason, so the server's log tells a retry from a first try.
 */
export function retryingServerFailures(signIn: SignIn): SignIn {
  return async (provider, params) => {
    try {
      return await signIn(provider, params);
    } catch (error) {
      const data = appErrorData(error) ? (error as { data: { serverFailure?: unknown } }).data : null;
      const reason = asServerFailureReason(data?.serverFailure);
      if (reason === null || params instanceof FormData) throw error;
      return await signIn(provider, { ...params, retryAfter: reason });
    }
  };
}

/**
 * An auth form: the schema's rules under the fields, `send` called with the checked values and
 * Convex Auth's signIn; what the server refused goes under the field it names, else in the
 * danger box under the form (FormError).
 */
export function useAuthForm<T extends FieldValues>(
  schema: z.ZodType<T, T>,
  defaultValues: DefaultValues<T>,
  send: (values: T, signIn: SignIn) => Promise<void>,
) {
  const { signIn: signInOnce } = useAuthActions();
  const signIn = retryingServerFailures(signInOnce);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<T>({ resolver: zodResolver(schema), defaultValues });

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await send(values, signIn);
    } catch (error) {
      const field = serverFieldOf(error, Object.keys(form.getValues()));
      if (field !== null) form.setError(field as Path<T>, { message: authErrorMessage(error) });
      else setServerError(authErrorMessage(error));
    }
  });

  return { form, serverError, onSubmit, submitting: form.formState.isSubmitting };
}

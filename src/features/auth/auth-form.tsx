import type { ReactNode } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";

import { SubmitButton } from "@/components/form-fields";
import { Form } from "@/components/ui/form";
import { FormError } from "@/components/form-error";

/**
 * An auth form as useAuthForm drives it: its fields (`children`), the submit button with its
 * spinner, and the server's refusal in the danger box under it.
 */
export function AuthForm<T extends FieldValues>({
  form,
  onSubmit,
  submitting,
  serverError,
  submitLabel,
  busyLabel,
  children,
}: {
  form: UseFormReturn<T>;
  onSubmit: (event?: React.BaseSyntheticEvent) => Promise<void>;
  submitting: boolean;
  serverError: string | null;
  submitLabel: ReactNode;
  busyLabel: string;
  children: ReactNode;
}) {
  return (
    <Form {...form}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
        {children}
        <SubmitButton submitting={submitting} busyLabel={busyLabel}>
          {submitLabel}
        </SubmitButton>
        <FormError message={serverError} />
      </form>
    </Form>
  );
}

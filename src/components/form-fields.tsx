// The fields the app's react-hook-form forms repeat (shadcn's Form pattern): a labelled input
// with its error under it, the email and one-time-code inputs, and a submit button that shows a
// spinner while the form is sent.
import type { ComponentProps, ReactNode } from "react";
import type { Control, FieldPath, FieldValues } from "react-hook-form";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";

type TextFieldProps<T extends FieldValues> = {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  /** Shown under the input, e.g. the rule a new password follows. */
  hint?: ReactNode;
  /** The error is announced as it appears (role="alert"), for a form whose errors show on submit. */
  announceError?: boolean;
} & Omit<ComponentProps<typeof Input>, "name" | "value" | "onChange" | "onBlur">;

/** A labelled text input bound to `name`, with the field's error under it. */
export function TextField<T extends FieldValues>({
  control,
  name,
  label,
  hint,
  announceError,
  ...input
}: TextFieldProps<T>) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input {...input} {...field} />
          </FormControl>
          {hint && <FormDescription>{hint}</FormDescription>}
          <FormMessage role={announceError ? "alert" : undefined} />
        </FormItem>
      )}
    />
  );
}

/** The 'Email' field: an email input the browser can fill in. */
export function EmailField<T extends FieldValues>(props: Omit<TextFieldProps<T>, "label"> & { label?: string }) {
  return <TextField label="Email" type="email" autoComplete="email" placeholder="you@example.com" {...props} />;
}

/** A 6-digit one-time code, as emailed. */
export function CodeField<T extends FieldValues>(props: TextFieldProps<T>) {
  return <TextField inputMode="numeric" autoComplete="one-time-code" maxLength={6} placeholder="123456" {...props} />;
}

/** The form's submit button: disabled, with a spinner named `busyLabel`, while it is sent. */
export function SubmitButton({
  submitting,
  busyLabel,
  children,
}: {
  submitting: boolean;
  busyLabel: string;
  children: ReactNode;
}) {
  return (
    <Button type="submit" disabled={submitting}>
      {submitting && <Spinner className="text-current" label={busyLabel} />}
      {children}
    </Button>
  );
}

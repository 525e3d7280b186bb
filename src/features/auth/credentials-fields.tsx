import type { Control } from "react-hook-form";

import { EmailField, TextField } from "@/components/form-fields";
import type { Credentials } from "@/features/auth/schemas";

/** Email and password inputs, labelled 'Email' and 'Password', with field errors under them. */
export function CredentialsFields({
  control,
  passwordAutoComplete,
  passwordPlaceholder,
  passwordHint,
}: {
  control: Control<Credentials>;
  passwordAutoComplete: "current-password" | "new-password";
  passwordPlaceholder?: string;
  /** The password rule, shown under the field when a new password is chosen. */
  passwordHint?: string;
}) {
  return (
    <>
      <EmailField control={control} name="email" />
      <TextField
        control={control}
        name="password"
        label="Password"
        type="password"
        autoComplete={passwordAutoComplete}
        placeholder={passwordPlaceholder}
        hint={passwordHint}
      />
    </>
  );
}

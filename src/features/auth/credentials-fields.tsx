import type { Control } from "react-hook-form";

import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
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
      <FormField
        control={control}
        name="email"
        render={({ field }) => (
          <FormItem>
            <FormLabel>Email</FormLabel>
            <FormControl>
              <Input type="email" autoComplete="email" placeholder="you@example.com" {...field} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
      <FormField
        control={control}
        name="password"
        render={({ field }) => (
          <FormItem>
            <FormLabel>Password</FormLabel>
            <FormControl>
              <Input type="password" autoComplete={passwordAutoComplete} placeholder={passwordPlaceholder} {...field} />
            </FormControl>
            {passwordHint && <FormDescription>{passwordHint}</FormDescription>}
            <FormMessage />
          </FormItem>
        )}
      />
    </>
  );
}

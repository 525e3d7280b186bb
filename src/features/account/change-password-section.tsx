import { zodResolver } from "@hookform/resolvers/zod";
import { useAction } from "convex/react";
import { KeyRoundIcon } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { PASSWORD_HINT } from "../../../convex/lib/credentials";
import { passwordChangeFormSchema, type PasswordChangeForm } from "../../../convex/lib/forms";
import { appErrorData, errorMessage } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import { Banner } from "@/components/banner";
import { refineGuessable } from "@/features/auth/password-strength";

type Field = keyof PasswordChangeForm;
const EMPTY: PasswordChangeForm = { currentPassword: "", newPassword: "", confirmPassword: "" };

/** The form's rules, then no common or guessable new password (the server's rule, loaded on submit). */
const formSchema = passwordChangeFormSchema.superRefine(async ({ newPassword }, context) => {
  await refineGuessable(newPassword, context, ["newPassword"]);
});

export const PASSWORD_CHANGED = "Password changed. Other devices have been signed out.";

const FIELDS: readonly { key: Field; label: string; autoComplete: string }[] = [
  { key: "currentPassword", label: "Current Password", autoComplete: "current-password" },
  { key: "newPassword", label: "New Password", autoComplete: "new-password" },
  { key: "confirmPassword", label: "Confirm New Password", autoComplete: "new-password" },
];

export function ChangePasswordSection() {
  const changePassword = useAction(api.profile.changePassword);
  // The rules profile.changePassword parses with (convex/lib/forms), plus the confirmation.
  const form = useForm<PasswordChangeForm>({ resolver: zodResolver(formSchema), defaultValues: EMPTY });
  const [result, setResult] = useState<{ tone: "success" | "error"; message: string } | null>(null);
  const saving = form.formState.isSubmitting;

  async function submit(values: PasswordChangeForm) {
    setResult(null);
    try {
      await changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      form.reset(EMPTY);
      setResult({ tone: "success", message: PASSWORD_CHANGED });
    } catch (error) {
      const data = appErrorData(error);
      const field = (error as { data?: { field?: unknown } }).data?.field;
      if (data && (field === "currentPassword" || field === "newPassword"))
        form.setError(field, { message: data.message });
      else setResult({ tone: "error", message: errorMessage(error, "Failed to change password") });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRoundIcon aria-hidden="true" className="size-4 text-primary" />
          <h2>Change Password</h2>
        </CardTitle>
        <CardDescription>Your other devices will be signed out.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form {...form}>
          <form
            noValidate
            onSubmit={(event) => void form.handleSubmit(submit)(event)}
            className="grid gap-4 sm:max-w-md"
          >
            {result && <Banner tone={result.tone}>{result.message}</Banner>}
            {FIELDS.map(({ key, label, autoComplete }) => (
              <FormField
                key={key}
                control={form.control}
                name={key}
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>{label}</FormLabel>
                    <FormControl>
                      <Input type="password" autoComplete={autoComplete} {...field} />
                    </FormControl>
                    {key === "newPassword" && <FormDescription>{PASSWORD_HINT}</FormDescription>}
                    <FormMessage />
                  </FormItem>
                )}
              />
            ))}
            <div>
              <Button type="submit" disabled={saving}>
                {saving && <Spinner className="text-current" label="Changing password" />}
                {saving ? "Changing..." : "Change Password"}
              </Button>
            </div>
          </form>
        </Form>
      </CardContent>
    </Card>
  );
}

import { useAction } from "convex/react";
import { KeyRoundIcon } from "lucide-react";
import { useState, type FormEvent } from "react";

import { Spinner } from "@/components/spinner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PASSWORD_HINT, passwordProblem } from "../../../convex/lib/credentials";
import { appErrorData, errorMessage } from "@/lib/errors";
import { api } from "../../../convex/_generated/api";
import { Banner } from "@/components/banner";

type Field = "currentPassword" | "newPassword" | "confirmPassword";
const EMPTY: Record<Field, string> = { currentPassword: "", newPassword: "", confirmPassword: "" };

export const PASSWORD_CHANGED = "Password changed. Other devices have been signed out.";

/** Client-side checks; the server checks the length and the current password again. */
export function passwordProblems(values: Record<Field, string>): Partial<Record<Field, string>> {
  const problems: Partial<Record<Field, string>> = {};
  if (!values.currentPassword) problems.currentPassword = "Enter your current password.";
  const passwordRule = passwordProblem(values.newPassword);
  if (passwordRule !== null) {
    problems.newPassword = passwordRule;
  } else if (values.newPassword === values.currentPassword) {
    problems.newPassword = "The new password must differ from the current one.";
  }
  if (values.confirmPassword !== values.newPassword) problems.confirmPassword = "The passwords do not match.";
  return problems;
}

const FIELDS: readonly { key: Field; label: string; autoComplete: string }[] = [
  { key: "currentPassword", label: "Current Password", autoComplete: "current-password" },
  { key: "newPassword", label: "New Password", autoComplete: "new-password" },
  { key: "confirmPassword", label: "Confirm New Password", autoComplete: "new-password" },
];

export function ChangePasswordSection() {
  const changePassword = useAction(api.profile.changePassword);
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saving, setSaving] = useState(false);
  const [result, setResult] = useState<{ tone: "success" | "error"; message: string } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setResult(null);
    const problems = passwordProblems(values);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setSaving(true);
    try {
      await changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      setValues(EMPTY);
      setResult({ tone: "success", message: PASSWORD_CHANGED });
    } catch (error) {
      const data = appErrorData(error);
      const field = (error as { data?: { field?: unknown } }).data?.field;
      if (data && (field === "currentPassword" || field === "newPassword")) setErrors({ [field]: data.message });
      else setResult({ tone: "error", message: errorMessage(error, "Failed to change password") });
    } finally {
      setSaving(false);
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
        <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4 sm:max-w-md">
          {result && <Banner tone={result.tone}>{result.message}</Banner>}
          {FIELDS.map(({ key, label, autoComplete }) => {
            const id = `password-${key}`;
            const error = errors[key];
            return (
              <div key={key} className="grid gap-2">
                <Label htmlFor={id}>{label}</Label>
                <Input
                  id={id}
                  type="password"
                  autoComplete={autoComplete}
                  value={values[key]}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={[key === "newPassword" ? `${id}-hint` : "", error ? `${id}-error` : ""].join(" ").trim() || undefined}
                  onChange={(event) => setValues((current) => ({ ...current, [key]: event.target.value }))}
                />
                {key === "newPassword" && (
                  <p id={`${id}-hint`} className="text-sm text-muted-foreground">
                    {PASSWORD_HINT}
                  </p>
                )}
                {error && (
                  <p id={`${id}-error`} className="text-sm text-destructive">
                    {error}
                  </p>
                )}
              </div>
            );
          })}
          <div>
            <Button type="submit" disabled={saving}>
              {saving && <Spinner className="text-current" label="Changing password" />}
              {saving ? "Changing..." : "Change Password"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

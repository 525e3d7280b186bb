import { AuthForm } from "@/features/auth/auth-form";
import { CredentialsFields } from "@/features/auth/credentials-fields";
import { useCredentialsForm } from "@/features/auth/use-credentials-form";
import { PASSWORD_HINT, PASSWORD_RULES } from "@/features/auth/schemas";

interface SignUpFormProps {
  /** The account exists but has no session yet: a verification code was emailed. */
  onVerificationNeeded: (email: string) => void;
}

export function SignUpForm({ onVerificationNeeded }: SignUpFormProps) {
  const { form, serverError, onSubmit, submitting } = useCredentialsForm("signUp", onVerificationNeeded);
  return (
    <AuthForm {...{ form, onSubmit, submitting, serverError }} busyLabel="Creating your account" submitLabel="Sign Up">
      <CredentialsFields
        control={form.control}
        passwordAutoComplete="new-password"
        passwordPlaceholder={`At least ${PASSWORD_RULES.minLength} characters`}
        passwordHint={PASSWORD_HINT}
      />
    </AuthForm>
  );
}

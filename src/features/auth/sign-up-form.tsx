import { SubmitButton } from "@/components/form-fields";
import { Form } from "@/components/ui/form";
import { CredentialsFields } from "@/features/auth/credentials-fields";
import { FormError } from "@/features/auth/form-error";
import { useCredentialsForm } from "@/features/auth/use-credentials-form";
import { PASSWORD_HINT, PASSWORD_RULES } from "@/features/auth/schemas";

interface SignUpFormProps {
  /** The account exists but has no session yet: a verification code was emailed. */
  onVerificationNeeded: (email: string) => void;
}

export function SignUpForm({ onVerificationNeeded }: SignUpFormProps) {
  const { form, serverError, onSubmit, submitting } = useCredentialsForm("signUp", onVerificationNeeded);
  return (
    <Form {...form}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
        <CredentialsFields
          control={form.control}
          passwordAutoComplete="new-password"
          passwordPlaceholder={`At least ${PASSWORD_RULES.minLength} characters`}
          passwordHint={PASSWORD_HINT}
        />
        <SubmitButton submitting={submitting} busyLabel="Creating your account">
          Sign Up
        </SubmitButton>
        <FormError message={serverError} />
      </form>
    </Form>
  );
}

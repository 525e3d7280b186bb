import { Button } from "@/components/ui/button";
import { AuthForm } from "@/features/auth/auth-form";
import { CredentialsFields } from "@/features/auth/credentials-fields";
import { useCredentialsForm } from "@/features/auth/use-credentials-form";

interface SignInFormProps {
  /** The account's email is not verified yet: the server has sent a code. */
  onVerificationNeeded: (email: string) => void;
  onForgotPassword: () => void;
}

export function SignInForm({ onVerificationNeeded, onForgotPassword }: SignInFormProps) {
  const { form, serverError, onSubmit, submitting } = useCredentialsForm("signIn", onVerificationNeeded);
  return (
    <AuthForm {...{ form, onSubmit, submitting, serverError }} busyLabel="Signing in" submitLabel="Sign In">
      <CredentialsFields control={form.control} passwordAutoComplete="current-password" />
      <div className="-mt-2 flex justify-end">
        <Button type="button" variant="link" size="sm" className="h-auto px-0" onClick={onForgotPassword}>
          Forgot your password?
        </Button>
      </div>
    </AuthForm>
  );
}

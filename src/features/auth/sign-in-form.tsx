import { SubmitButton } from "@/components/form-fields";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { CredentialsFields } from "@/features/auth/credentials-fields";
import { FormError } from "@/features/auth/form-error";
import { useCredentialsForm } from "@/features/auth/use-credentials-form";

interface SignInFormProps {
  /** The account's email is not verified yet: the server has sent a code. */
  onVerificationNeeded: (email: string) => void;
  onForgotPassword: () => void;
}

export function SignInForm({ onVerificationNeeded, onForgotPassword }: SignInFormProps) {
  const { form, serverError, onSubmit, submitting } = useCredentialsForm("signIn", onVerificationNeeded);
  return (
    <Form {...form}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
        <CredentialsFields control={form.control} passwordAutoComplete="current-password" />
        <div className="-mt-2 flex justify-end">
          <Button type="button" variant="link" size="sm" className="h-auto px-0" onClick={onForgotPassword}>
            Forgot your password?
          </Button>
        </div>
        <SubmitButton submitting={submitting} busyLabel="Signing in">
          Sign In
        </SubmitButton>
        <FormError message={serverError} />
      </form>
    </Form>
  );
}

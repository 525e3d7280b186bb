import { withDevice } from "@/features/auth/device";
import { credentialsSchema, signUpSchema, type Credentials } from "@/features/auth/schemas";
import { useAuthForm } from "@/features/auth/use-auth-form";

/**
 * The email-and-password form of Sign In and Sign Up: the flow's rules (a new password follows
 * the password rule), this browser's id on the call, and `onVerificationNeeded` when the account
 * must first enter an emailed code. When a session arrives instead, AuthLayout moves on.
 */
export function useCredentialsForm(flow: "signIn" | "signUp", onVerificationNeeded: (email: string) => void) {
  return useAuthForm<Credentials>(
    flow === "signUp" ? signUpSchema : credentialsSchema,
    { email: "", password: "" },
    async ({ email, password }, signIn) => {
      const { signingIn } = await signIn("password", withDevice({ email, password, flow }));
      if (!signingIn) onVerificationNeeded(email);
    },
  );
}

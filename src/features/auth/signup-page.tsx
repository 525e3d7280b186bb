import { useState } from "react";

import { AuthCard, AuthSwitch } from "@/features/auth/auth-card";
import { AuthLayout } from "@/features/auth/auth-layout";
import { SignUpForm } from "@/features/auth/sign-up-form";
import { VerifyEmail } from "@/features/auth/verify-email";

export function SignupPage({ redirect }: { redirect: string | undefined }) {
  // Set when sign-up created the account but a verification code must be entered first.
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);

  return (
    <AuthLayout redirect={redirect}>
      {pendingEmail !== null ? (
        <VerifyEmail email={pendingEmail} redirect={redirect} />
      ) : (
        <AuthCard
          title="Create a new account"
          description="Compare AI models on your own prompts, judged by other models."
          footer={<AuthSwitch question="Already have an account?" to="/login" label="Sign In" redirect={redirect} />}
        >
          <SignUpForm onVerificationNeeded={setPendingEmail} />
        </AuthCard>
      )}
    </AuthLayout>
  );
}

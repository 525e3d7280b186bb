import { Link } from "@tanstack/react-router";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { AuthCard } from "@/features/auth/auth-card";
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
          footer={
            <>
              <p className="text-sm text-muted-foreground">Already have an account?</p>
              <Button variant="outline" className="w-full" asChild>
                <Link to="/login" search={{ redirect }}>
                  Sign In
                </Link>
              </Button>
            </>
          }
        >
          <SignUpForm onVerificationNeeded={setPendingEmail} />
        </AuthCard>
      )}
    </AuthLayout>
  );
}

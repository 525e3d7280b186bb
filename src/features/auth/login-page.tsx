import { useQuery } from "convex/react";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { AuthCard, AuthSwitch } from "@/features/auth/auth-card";
import { AuthLayout } from "@/features/auth/auth-layout";
import { EmailSignIn } from "@/features/auth/email-sign-in";
import { ForgotPassword } from "@/features/auth/forgot-password";
import { SignInForm } from "@/features/auth/sign-in-form";
import { VerifyEmail } from "@/features/auth/verify-email";
import { api } from "../../../convex/_generated/api";

type LoginView =
  | { mode: "sign_in" }
  | { mode: "forgotten_password" }
  | { mode: "verify_otp"; email: string }
  | { mode: "magic_link" }
  | { mode: "code" };

export function LoginPage({ redirect }: { redirect: string | undefined }) {
  const [view, setView] = useState<LoginView>({ mode: "sign_in" });
  const backToSignIn = () => setView({ mode: "sign_in" });
  // Magic link and code sign-in need an email sender (spec part 1 §2, §4).
  const emailEnabled = useQuery(api.users.authOptions)?.emailEnabled === true;

  return (
    <AuthLayout redirect={redirect}>
      {view.mode === "forgotten_password" ? (
        <ForgotPassword onBack={backToSignIn} />
      ) : view.mode === "verify_otp" ? (
        <VerifyEmail email={view.email} onBack={backToSignIn} redirect={redirect} />
      ) : view.mode === "magic_link" || view.mode === "code" ? (
        <EmailSignIn kind={view.mode} redirect={redirect} onBack={backToSignIn} />
      ) : (
        <AuthCard
          title="Sign in to your account"
          description="Welcome back to ModelJury."
          footer={<AuthSwitch question="New to ModelJury?" to="/signup" label="Create Account" redirect={redirect} />}
        >
          <SignInForm
            onForgotPassword={() => setView({ mode: "forgotten_password" })}
            onVerificationNeeded={(email) => setView({ mode: "verify_otp", email })}
          />
          {emailEnabled && (
            <div className="mt-4 grid gap-2 border-t pt-4">
              <p className="text-center text-sm text-muted-foreground">Or sign in without a password</p>
              <Button variant="secondary" onClick={() => setView({ mode: "magic_link" })}>
                Email Me a Magic Link
              </Button>
              <Button variant="secondary" onClick={() => setView({ mode: "code" })}>
                Email Me a Code
              </Button>
            </div>
          )}
        </AuthCard>
      )}
    </AuthLayout>
  );
}

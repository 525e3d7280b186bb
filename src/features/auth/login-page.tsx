import { Link } from "@tanstack/react-router";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { AuthLayout } from "@/features/auth/auth-layout";
import { ForgotPassword } from "@/features/auth/forgot-password";
import { SignInForm } from "@/features/auth/sign-in-form";
import { VerifyEmail } from "@/features/auth/verify-email";

type LoginView = { mode: "sign_in" } | { mode: "forgotten_password" } | { mode: "verify_otp"; email: string };

export function LoginPage({ redirect }: { redirect: string | undefined }) {
  const [view, setView] = useState<LoginView>({ mode: "sign_in" });
  const backToSignIn = () => setView({ mode: "sign_in" });

  return (
    <AuthLayout redirect={redirect}>
      {view.mode === "forgotten_password" ? (
        <ForgotPassword onBack={backToSignIn} />
      ) : view.mode === "verify_otp" ? (
        <VerifyEmail email={view.email} onBack={backToSignIn} redirect={redirect} />
      ) : (
        <Card>
          <CardHeader className="text-center">
            <CardTitle>
              <h1 className="text-2xl">Sign in to your account</h1>
            </CardTitle>
            <CardDescription>Welcome back to ModelJury.</CardDescription>
          </CardHeader>
          <CardContent>
            <SignInForm
              onForgotPassword={() => setView({ mode: "forgotten_password" })}
              onVerificationNeeded={(email) => setView({ mode: "verify_otp", email })}
            />
          </CardContent>
          <CardFooter className="flex-col gap-3">
            <p className="text-sm text-muted-foreground">New to ModelJury?</p>
            <Button variant="outline" className="w-full" asChild>
              <Link to="/signup" search={{ redirect }}>
                Create Account
              </Link>
            </Button>
          </CardFooter>
        </Card>
      )}
    </AuthLayout>
  );
}

import { Link } from "@tanstack/react-router";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
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
        <Card>
          <CardHeader className="text-center">
            <CardTitle>
              <h1 className="text-2xl">Create a new account</h1>
            </CardTitle>
            <CardDescription>Compare AI models on your own prompts, judged by other models.</CardDescription>
          </CardHeader>
          <CardContent>
            <SignUpForm onVerificationNeeded={setPendingEmail} />
          </CardContent>
          <CardFooter className="flex-col gap-3">
            <p className="text-sm text-muted-foreground">Already have an account?</p>
            <Button variant="outline" className="w-full" asChild>
              <Link to="/login" search={{ redirect }}>
                Sign In
              </Link>
            </Button>
          </CardFooter>
        </Card>
      )}
    </AuthLayout>
  );
}

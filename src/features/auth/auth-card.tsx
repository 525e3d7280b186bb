import { Link } from "@tanstack/react-router";
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";

/**
 * The card every auth screen is: an optional icon over the screen's heading (its h1), the
 * sentence under it when there is one, the form or message, and the footer's way elsewhere.
 */
export function AuthCard({
  icon: Icon,
  title,
  description,
  footer,
  children,
}: {
  icon?: LucideIcon;
  title: ReactNode;
  description?: ReactNode;
  footer: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader className="text-center">
        {Icon && <Icon className="mx-auto size-10 text-primary" aria-hidden="true" />}
        <CardTitle>
          <h1 className="text-2xl">{title}</h1>
        </CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent>{children}</CardContent>
      <CardFooter className="flex-col gap-3">{footer}</CardFooter>
    </Card>
  );
}

/** The footer of the sign-in and sign-up screens: the question and the way to the other one. */
export function AuthSwitch({
  question,
  to,
  label,
  redirect,
}: {
  question: string;
  to: "/login" | "/signup";
  label: string;
  redirect: string | undefined;
}) {
  return (
    <>
      <p className="text-sm text-muted-foreground">{question}</p>
      <Button variant="outline" className="w-full" asChild>
        <Link to={to} search={{ redirect }}>
          {label}
        </Link>
      </Button>
    </>
  );
}

/** The footer of a screen reached from the sign-in screen. */
export function BackToSignIn({ onBack }: { onBack: () => void }) {
  return (
    <Button variant="outline" className="w-full" onClick={onBack}>
      Back to Sign In
    </Button>
  );
}

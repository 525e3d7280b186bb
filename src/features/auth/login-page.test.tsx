import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { beforeAll, describe, expect, it } from "vitest";

import { makeViewer, setQueryResult, setSignedIn, signIn } from "@/test/convex-mock";
import { loadPasswordStrength } from "@/features/auth/password-strength";
import { renderApp } from "@/test/render-app";
import { GUESSABLE_PASSWORD_MESSAGE } from "../../../convex/lib/passwordStrength";

// The forms load the common-password checker on first submit (about 200 KB gzipped): loaded and
// ranked once here, so no test's clock pays for it.
beforeAll(async () => {
  (await loadPasswordStrength()).guessablePasswordProblem("warm-up-password");
});

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText("Email"), email);
  await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Sign In" }));
  return user;
}

describe("login screen", () => {
  it("has the title, the fields and a Create Account button to /signup", async () => {
    renderApp("/login");
    expect(await screen.findByRole("heading", { name: "Sign in to your account" })).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toHaveAttribute("type", "password");
    expect(screen.getByRole("link", { name: "Create Account" })).toHaveAttribute("href", "/signup");
  });

  it("shows the server's error in the danger box under the form", async () => {
    signIn.mockRejectedValue(
      new Error(
        "[CONVEX A(auth:signIn)] [Request ID: 1a2b] Server Error\nUncaught Error: InvalidSecret\n  Called by client",
      ),
    );
    renderApp("/login");
    await fillAndSubmit("ada@example.com", "wrong-password");
    const box = await screen.findByTestId("auth-error");
    expect(box).toHaveAttribute("role", "alert");
    expect(box).toHaveTextContent("Invalid email or password.");
    // With this browser's id, so the owner's own browser skips the back-off strangers cause.
    expect(signIn).toHaveBeenCalledWith("password", {
      email: "ada@example.com",
      password: "wrong-password",
      flow: "signIn",
      device: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
    });
  });

  it("shows a ConvexError's message in the danger box", async () => {
    signIn.mockRejectedValue(
      new ConvexError({ code: "INVALID_INPUT", message: "Please enter a valid email address." }),
    );
    renderApp("/login");
    await fillAndSubmit("ada@example.com", "long-enough");
    expect(await screen.findByTestId("auth-error")).toHaveTextContent("Please enter a valid email address.");
  });

  it("validates the fields before calling the server", async () => {
    renderApp("/login");
    await fillAndSubmit("not-an-email", "short");
    expect(await screen.findByText("Please enter a valid email address.")).toBeInTheDocument();
    expect(screen.getByText("Password must be at least 8 characters.")).toBeInTheDocument();
    expect(signIn).not.toHaveBeenCalled();
  });

  it("replaces the page with the originally requested location once signed in", async () => {
    signIn.mockImplementation(async () => {
      setSignedIn(makeViewer());
      return { signingIn: true };
    });
    const { router } = renderApp("/login?redirect=%2Fdashboard");
    await fillAndSubmit("ada@example.com", "correct-horse");
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(await screen.findByRole("heading", { name: "Welcome back, ada" })).toBeInTheDocument();
    expect(router.history.length).toBe(1);
  });

  it("asks for the emailed code when the account is not verified yet", async () => {
    signIn.mockResolvedValue({ signingIn: false });
    renderApp("/login");
    await fillAndSubmit("ada@example.com", "correct-horse");
    expect(await screen.findByRole("heading", { name: "Check Your Email" })).toBeInTheDocument();
    expect(screen.getByLabelText("Verification code")).toBeInTheDocument();
  });

  it("says plainly that password reset is unavailable without an email sender", async () => {
    const user = userEvent.setup();
    setQueryResult("users:authOptions", { emailEnabled: false });
    renderApp("/login");
    await user.click(await screen.findByRole("button", { name: "Forgot your password?" }));
    expect(await screen.findByTestId("reset-unavailable")).toHaveTextContent(
      "Password reset by email is not available: this deployment has no email sender configured. Ask an administrator to reset your password.",
    );
    await user.click(screen.getByRole("button", { name: "Back to Sign In" }));
    expect(await screen.findByRole("heading", { name: "Sign in to your account" })).toBeInTheDocument();
  });

  it("offers magic link and code sign-in only when the deployment can send email", async () => {
    setQueryResult("users:authOptions", { emailEnabled: false });
    renderApp("/login");
    expect(await screen.findByRole("heading", { name: "Sign in to your account" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Email Me a Magic Link" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Email Me a Code" })).not.toBeInTheDocument();
  });

  it("sends a magic link: empty email is refused, then the spec's confirmation shows", async () => {
    const user = userEvent.setup();
    setQueryResult("users:authOptions", { emailEnabled: true });
    signIn.mockResolvedValue({ signingIn: false });
    renderApp("/login?redirect=%2Fdashboard%2Fhistory");
    await user.click(await screen.findByRole("button", { name: "Email Me a Magic Link" }));
    expect(screen.getByLabelText("Email")).toHaveAttribute("type", "email");
    await user.click(screen.getByRole("button", { name: "Send Magic Link" }));
    expect(await screen.findByText("Please enter your email address.")).toBeInTheDocument();
    expect(signIn).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText("Email"), "Ada@Example.com");
    await user.click(screen.getByRole("button", { name: "Send Magic Link" }));
    expect(await screen.findByTestId("magic-link-sent")).toHaveTextContent("Check your email for the magic link");
    expect(signIn).toHaveBeenCalledWith("magic-link", {
      email: "ada@example.com",
      redirectTo: "/login?redirect=%2Fdashboard%2Fhistory",
    });
  });

  it("signs in with an emailed code", async () => {
    const user = userEvent.setup();
    setQueryResult("users:authOptions", { emailEnabled: true });
    signIn.mockResolvedValueOnce({ signingIn: false });
    renderApp("/login");
    await user.click(await screen.findByRole("button", { name: "Email Me a Code" }));
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.click(screen.getByRole("button", { name: "Send Code" }));
    expect(signIn).toHaveBeenCalledWith("email-code", { email: "ada@example.com" });
    signIn.mockImplementationOnce(async () => {
      setSignedIn(makeViewer());
      return { signingIn: true };
    });
    await user.type(await screen.findByLabelText("Sign-in code"), "123456");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    expect(signIn).toHaveBeenLastCalledWith(
      "email-code",
      expect.objectContaining({ email: "ada@example.com", code: "123456" }),
    );
    expect(await screen.findByRole("heading", { name: "Welcome back, ada" })).toBeInTheDocument();
  });

  it("resets a password with the emailed code when email is configured", async () => {
    const user = userEvent.setup();
    setQueryResult("users:authOptions", { emailEnabled: true });
    signIn.mockResolvedValue({ signingIn: false });
    renderApp("/login");
    await user.click(await screen.findByRole("button", { name: "Forgot your password?" }));
    await user.type(await screen.findByLabelText("Email"), "ada@example.com");
    await user.click(screen.getByRole("button", { name: "Send Reset Code" }));
    // The email carries a 6-digit code, not a link: the screen says so.
    expect(await screen.findByText("Check your email for the password reset code")).toBeInTheDocument();
    expect(screen.queryByText(/reset link/i)).not.toBeInTheDocument();
    expect(signIn).toHaveBeenLastCalledWith("password", { email: "ada@example.com", flow: "reset" });

    signIn.mockResolvedValue({ signingIn: true });
    await user.type(screen.getByLabelText("Code"), "123456");
    // A common password is refused under the field before the code is sent.
    await user.type(screen.getByLabelText("New password"), "aaaaaaaa");
    await user.click(screen.getByRole("button", { name: "Update Password" }));
    expect(await screen.findByText(GUESSABLE_PASSWORD_MESSAGE)).toBeInTheDocument();
    expect(signIn).toHaveBeenCalledTimes(1);
    await user.clear(screen.getByLabelText("New password"));
    await user.type(screen.getByLabelText("New password"), "new-password-1");
    await user.click(screen.getByRole("button", { name: "Update Password" }));
    expect(signIn).toHaveBeenLastCalledWith(
      "password",
      expect.objectContaining({
        email: "ada@example.com",
        code: "123456",
        newPassword: "new-password-1",
        flow: "reset-verification",
      }),
    );
    expect((await screen.findAllByText("Your password has been updated")).length).toBeGreaterThan(0);
  });
});

describe("signup screen", () => {
  it("has the title and a Sign In button to /login", async () => {
    renderApp("/signup");
    expect(await screen.findByRole("heading", { name: "Create a new account" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/login");
  });

  it("shows the password rule under the field and applies it before calling the server", async () => {
    const user = userEvent.setup();
    renderApp("/signup");
    await user.type(await screen.findByLabelText("Email"), "new@example.com");
    expect(screen.getByText("8 to 128 characters, not only spaces.")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Password"), "          ");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    expect(await screen.findByText("Password cannot be only spaces.")).toBeInTheDocument();
    await user.clear(screen.getByLabelText("Password"));
    await user.click(screen.getByLabelText("Password"));
    await user.paste("x".repeat(129));
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    expect(await screen.findByText("Password must be at most 128 characters.")).toBeInTheDocument();
    expect(signIn).not.toHaveBeenCalled();
  });

  it("shows 'Check Your Email' when sign-up needs verification, with a way back to sign in", async () => {
    const user = userEvent.setup();
    signIn.mockResolvedValue({ signingIn: false });
    const { router } = renderApp("/signup");
    await user.type(await screen.findByLabelText("Email"), "new@example.com");
    await user.type(screen.getByLabelText("Password"), "long-enough");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    expect(await screen.findByRole("heading", { name: "Check Your Email" })).toBeInTheDocument();
    expect(screen.getByText(/check your spam folder, or sign up with a different email/i)).toBeInTheDocument();
    expect(signIn).toHaveBeenCalledWith(
      "password",
      expect.objectContaining({ email: "new@example.com", password: "long-enough", flow: "signUp" }),
    );

    signIn.mockResolvedValue({ signingIn: true });
    await user.type(screen.getByLabelText("Verification code"), "654321");
    await user.click(screen.getByRole("button", { name: "Verify Email" }));
    expect(signIn).toHaveBeenLastCalledWith(
      "password",
      expect.objectContaining({
        email: "new@example.com",
        code: "654321",
        flow: "email-verification",
      }),
    );

    await user.click(screen.getByRole("link", { name: "Back to Sign In" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
  });
});

import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { beforeAll, describe, expect, it } from "vitest";

import { loadPasswordStrength } from "@/features/auth/password-strength";
import { makeViewer, setSignedIn, signIn } from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";

beforeAll(async () => {
  (await loadPasswordStrength()).guessablePasswordProblem("warm-up-password");
});

const FAILED = "Signing in failed. Please try again.";

/** What convex/auth.ts throws when its store mutation timed out or kept conflicting. */
const serverFailure = (reason: "time-out" | "conflict") =>
  new ConvexError({ code: "UNAVAILABLE", message: FAILED, serverFailure: reason });

async function signInAs(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText("Email"), email);
  await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Sign In" }));
}

describe("a sign-in that fails for a reason of the server's", () => {
  it("is tried once more, naming the reason, and the user is signed in without seeing the failure", async () => {
    signIn.mockRejectedValueOnce(serverFailure("time-out")).mockImplementationOnce(async () => {
      setSignedIn(makeViewer());
      return { signingIn: true };
    });
    const { router } = renderApp("/login?redirect=%2Fdashboard");
    await signInAs("ada@example.com", "correct-horse");
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(screen.queryByTestId("auth-error")).not.toBeInTheDocument();
    expect(signIn).toHaveBeenCalledTimes(2);
    expect(signIn).toHaveBeenLastCalledWith(
      "password",
      expect.objectContaining({ email: "ada@example.com", password: "correct-horse", retryAfter: "time-out" }),
    );
  });

  it("shows 'Signing in failed' when the retry fails too, after exactly two tries", async () => {
    signIn.mockRejectedValueOnce(serverFailure("conflict")).mockRejectedValueOnce(serverFailure("conflict"));
    renderApp("/login");
    await signInAs("ada@example.com", "correct-horse");
    expect(await screen.findByTestId("auth-error")).toHaveTextContent(FAILED);
    expect(signIn).toHaveBeenCalledTimes(2);
  });

  it("does not try again a refusal of what was sent", async () => {
    signIn.mockRejectedValue(new ConvexError({ code: "UNAUTHENTICATED", message: "Invalid email or password." }));
    renderApp("/login");
    await signInAs("ada@example.com", "wrong-password");
    expect(await screen.findByTestId("auth-error")).toHaveTextContent("Invalid email or password.");
    expect(signIn).toHaveBeenCalledTimes(1);
  });
});

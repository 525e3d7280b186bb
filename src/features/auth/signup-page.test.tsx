import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { beforeAll, describe, expect, it } from "vitest";

import { setAuthLoading, setSignedOut, signIn } from "@/test/convex-mock";
import { loadPasswordStrength } from "@/features/auth/password-strength";
import { renderApp } from "@/test/render-app";
import { GUESSABLE_PASSWORD_MESSAGE } from "../../../convex/lib/passwordStrength";

// The forms load the common-password checker on first submit (about 200 KB gzipped): loaded and
// ranked once here, so no test's clock pays for it.
beforeAll(async () => {
  (await loadPasswordStrength()).guessablePasswordProblem("warm-up-password");
});

describe("sign-up screen", () => {
  it("keeps an email typed the moment the form shows while the session settles, and signs up with it", async () => {
    // A direct load: the session is checked first (a stored token is read, then refused).
    setAuthLoading();
    renderApp("/signup");
    expect(await screen.findByLabelText("Loading your session")).toBeInTheDocument();
    act(() => setSignedOut());

    // Typed as soon as the field exists, before anything else has settled.
    const user = userEvent.setup();
    const email = await screen.findByLabelText("Email");
    await user.type(email, "early@example.com");
    // The session is checked again (the refused token is cleared, the connection comes up).
    // act() has rendered each change before it returns: a form hidden meanwhile is gone by now.
    act(() => setAuthLoading());
    expect(screen.queryByLabelText("Loading your session")).not.toBeInTheDocument();
    act(() => setSignedOut());

    expect(screen.getByLabelText("Email")).toHaveValue("early@example.com");
    await user.type(screen.getByLabelText("Password"), "correct-horse-battery");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    await waitFor(() =>
      expect(signIn).toHaveBeenCalledWith(
        "password",
        expect.objectContaining({ email: "early@example.com", flow: "signUp" }),
      ),
    );
  });

  it("refuses a common or trivially guessable password under the field, before calling the server", async () => {
    setSignedOut();
    const user = userEvent.setup();
    renderApp("/signup");
    await user.click(await screen.findByLabelText("Email"));
    await user.paste("new@example.com");
    for (const password of ["12345678", "aaaaaaaa"]) {
      await user.clear(screen.getByLabelText("Password"));
      await user.paste(password);
      await user.click(screen.getByRole("button", { name: "Sign Up" }));
      expect(await screen.findByText(GUESSABLE_PASSWORD_MESSAGE)).toBeInTheDocument();
      expect(screen.getByLabelText("Password")).toHaveAttribute("aria-invalid", "true");
    }
    expect(signIn).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText("Password"));
    await user.paste("correct-horse-battery");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    await waitFor(() => expect(signIn).toHaveBeenCalledTimes(1));
  });

  it("shows the server's password refusal under the field too (the server stays the judge)", async () => {
    setSignedOut();
    signIn.mockRejectedValue(
      new ConvexError({ code: "INVALID_INPUT", field: "password", message: GUESSABLE_PASSWORD_MESSAGE }),
    );
    const user = userEvent.setup();
    renderApp("/signup");
    await user.click(await screen.findByLabelText("Email"));
    await user.paste("new@example.com");
    await user.click(screen.getByLabelText("Password"));
    await user.paste("correct-horse-battery");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    expect(await screen.findByText(GUESSABLE_PASSWORD_MESSAGE)).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toHaveAttribute("aria-invalid", "true");
  });
});

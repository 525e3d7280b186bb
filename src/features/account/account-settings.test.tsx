import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { callMock, makeViewer, mockCall, QueryFailure, setQueryResult, setSignedIn } from "@/test/convex-mock";
import { loadPasswordStrength } from "@/features/auth/password-strength";
import { renderApp } from "@/test/render-app";
import { cleanProfileField, type Profile } from "./profile-section";
import { GUESSABLE_PASSWORD_MESSAGE } from "../../../convex/lib/passwordStrength";

// The forms load the common-password checker on first submit (about 200 KB gzipped): loaded and
// ranked once here, so no test's clock pays for it.
beforeAll(async () => {
  (await loadPasswordStrength()).guessablePasswordProblem("warm-up-password");
});

const PROFILE: Profile = {
  id: "k17abcdefghij0123456789xyzuvw" as Profile["id"],
  email: "ada@example.com",
  fullName: "Ada",
  avatarUrl: null,
  createdAt: Date.UTC(2025, 0, 2, 10, 0),
  updatedAt: Date.UTC(2025, 5, 3, 12, 0),
};

async function renderSettings(
  profile: Profile | QueryFailure | undefined = PROFILE,
  keyStatus: unknown = { storageAvailable: true, key: null },
) {
  setSignedIn(makeViewer());
  setQueryResult("profile:get", profile);
  setQueryResult("apiKeys:status", keyStatus);
  renderApp("/dashboard/settings");
  await screen.findByRole("heading", { name: "Account Settings" });
}

describe("cleanProfileField", () => {
  it("trims and turns empty into null", () => {
    expect(cleanProfileField("  Ada  ")).toBe("Ada");
    expect(cleanProfileField("   ")).toBeNull();
  });
});

describe("account settings", () => {
  it("shows the read-only email with its note, the created and updated dates and the short id", async () => {
    await renderSettings();
    const email = screen.getByLabelText("Email");
    expect(email).toHaveValue("ada@example.com");
    expect(email).toHaveAttribute("readonly");
    expect(screen.getByText("Email cannot be changed. Contact support if needed.")).toBeInTheDocument();
    expect(screen.getByTestId("account-short-id")).toHaveTextContent("k17abcde");
    expect(screen.getByTestId("account-created")).toHaveTextContent("2025");
    expect(screen.getByLabelText("Avatar URL")).toHaveAttribute("type", "url");
  });

  it("saves trimmed values, empty as null, and shows the green banner", async () => {
    const user = userEvent.setup();
    await renderSettings();
    await user.clear(screen.getByLabelText("Full Name"));
    await user.type(screen.getByLabelText("Full Name"), "  Ada Lovelace  ");
    await user.type(screen.getByLabelText("Avatar URL"), "   ");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    await waitFor(() =>
      expect(callMock("profile:update")).toHaveBeenCalledWith({ fullName: "Ada Lovelace", avatarUrl: null }),
    );
    expect(await screen.findByText("Profile updated successfully!")).toBeInTheDocument();
  });

  it("shows the red banner when the update fails", async () => {
    const user = userEvent.setup();
    vi.spyOn(console, "error").mockImplementation(() => {});
    mockCall("profile:update", async () => {
      throw new ConvexError({ code: "INVALID_INPUT", message: "Avatar URL must be a valid http(s) URL." });
    });
    await renderSettings();
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    const banner = await screen.findByRole("alert");
    expect(banner).toHaveTextContent("Failed to update profile");
    expect(banner).toHaveTextContent("Avatar URL must be a valid http(s) URL.");
  });

  it("says 'Failed to load profile information' when the profile cannot load", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    await renderSettings(new QueryFailure("nope"));
    expect(await screen.findByText("Failed to load profile information")).toBeInTheDocument();
  });

  it("previews the avatar and hides the preview when the image fails to load", async () => {
    const user = userEvent.setup();
    await renderSettings();
    expect(screen.queryByTestId("avatar-preview")).not.toBeInTheDocument();
    await user.type(screen.getByLabelText("Avatar URL"), "https://example.com/me.png");
    const preview = screen.getByTestId("avatar-preview");
    expect(preview).toHaveAttribute("src", "https://example.com/me.png");
    fireEvent.error(preview);
    expect(screen.queryByTestId("avatar-preview")).not.toBeInTheDocument();
  });

  it("shows the password rule under the new password and applies it (not only spaces)", async () => {
    const user = userEvent.setup();
    await renderSettings();
    expect(screen.getByLabelText("New Password")).toHaveAccessibleDescription("8 to 128 characters, not only spaces.");
    await user.type(screen.getByLabelText("Current Password"), "old-password");
    await user.type(screen.getByLabelText("New Password"), "          ");
    await user.click(screen.getByRole("button", { name: "Change Password" }));
    expect(await screen.findByText("Password cannot be only spaces.")).toBeInTheDocument();
    expect(callMock("profile:changePassword")).not.toHaveBeenCalled();
  });

  it("refuses a common or guessable new password under the field, before calling the server", async () => {
    const user = userEvent.setup();
    await renderSettings();
    for (const [label, value] of [
      ["Current Password", "old-password"],
      ["New Password", "12345678"],
      ["Confirm New Password", "12345678"],
    ] as const) {
      await user.click(screen.getByLabelText(label));
      await user.paste(value);
    }
    await user.click(screen.getByRole("button", { name: "Change Password" }));
    expect(await screen.findByText(GUESSABLE_PASSWORD_MESSAGE)).toBeInTheDocument();
    expect(screen.getByLabelText("New Password")).toHaveAttribute("aria-invalid", "true");
    expect(callMock("profile:changePassword")).not.toHaveBeenCalled();
  });

  it("changes the password after checking the fields; the server's field error shows under the field", async () => {
    const user = userEvent.setup();
    await renderSettings();
    await user.click(screen.getByRole("button", { name: "Change Password" }));
    expect(screen.getByText("Enter your current password.")).toBeInTheDocument();
    expect(callMock("profile:changePassword")).not.toHaveBeenCalled();

    mockCall("profile:changePassword", async () => {
      throw new ConvexError({
        code: "INVALID_INPUT",
        field: "currentPassword",
        message: "Current password is incorrect.",
      });
    });
    await user.type(screen.getByLabelText("Current Password"), "old-password");
    await user.type(screen.getByLabelText("New Password"), "new-password-1");
    await user.type(screen.getByLabelText("Confirm New Password"), "new-password-1");
    await user.click(screen.getByRole("button", { name: "Change Password" }));
    expect(await screen.findByText("Current password is incorrect.")).toBeInTheDocument();

    mockCall("profile:changePassword", async () => null);
    await user.click(screen.getByRole("button", { name: "Change Password" }));
    expect(await screen.findByText("Password changed. Other devices have been signed out.")).toBeInTheDocument();
    expect(callMock("profile:changePassword")).toHaveBeenLastCalledWith({
      currentPassword: "old-password",
      newPassword: "new-password-1",
    });
    expect(screen.getByLabelText("Current Password")).toHaveValue("");
  });

  it("saves an own API key, shows it masked, tests it and removes it", async () => {
    const user = userEvent.setup();
    await renderSettings();
    const usage = screen.getByRole("region", { name: "Usage" });
    expect(within(usage).getByTestId("own-key-note")).toHaveTextContent("ModelJury does not charge you for those runs");
    await user.type(within(usage).getByLabelText("OpenRouter API key"), "sk-or-v1-secret-abcd");
    await user.click(within(usage).getByRole("button", { name: "Save Key" }));
    await waitFor(() => expect(callMock("apiKeys:save")).toHaveBeenCalledWith({ key: "sk-or-v1-secret-abcd" }));

    setQueryResult("apiKeys:status", { storageAvailable: true, key: { masked: "••••••••abcd", savedAt: Date.now() } });
    expect(await within(usage).findByTestId("masked-key")).toHaveTextContent("••••••••abcd");
    expect(usage).not.toHaveTextContent("sk-or-v1-secret");

    mockCall("apiKeys:check", async () => ({
      ok: true,
      modelCount: 312,
      message: "Your key works: it can see 312 models.",
    }));
    await user.click(within(usage).getByRole("button", { name: "Test Key" }));
    expect(await within(usage).findByTestId("key-test-result")).toHaveTextContent("it can see 312 models");

    mockCall("apiKeys:check", async () => ({
      ok: false,
      message: "Invalid API key. Please check your OpenRouter API key configuration.",
    }));
    await user.click(within(usage).getByRole("button", { name: "Test Key" }));
    await waitFor(() => expect(within(usage).getByTestId("key-test-result")).toHaveTextContent("Invalid API key"));

    await user.click(within(usage).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(callMock("apiKeys:remove")).toHaveBeenCalled());
  });

  it("a key the gateway refuses is not saved: the field shows the gateway's reason and keeps the entry", async () => {
    const user = userEvent.setup();
    await renderSettings();
    const usage = screen.getByRole("region", { name: "Usage" });
    expect(usage).toHaveTextContent("Checked with the gateway before it is saved");
    mockCall("apiKeys:save", async () => {
      throw new ConvexError({
        code: "INVALID_INPUT",
        field: "key",
        message: "Invalid API key. Please check your OpenRouter API key configuration.",
      });
    });
    const input = within(usage).getByLabelText("OpenRouter API key");
    await user.type(input, "sk-or-v1-typo");
    await user.click(within(usage).getByRole("button", { name: "Save Key" }));
    expect(
      await within(usage).findByText("Invalid API key. Please check your OpenRouter API key configuration."),
    ).toBeInTheDocument();
    expect(input).toHaveValue("sk-or-v1-typo");
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(within(usage).queryByTestId("masked-key")).not.toBeInTheDocument();
  });

  it("scrolls to the usage section when the address asks for #usage (the user menu's Usage item), again once the profile above it loads", async () => {
    const scrolled = vi.spyOn(window.HTMLElement.prototype, "scrollIntoView").mockImplementation(() => {});
    setSignedIn(makeViewer());
    setQueryResult("profile:get", undefined);
    setQueryResult("apiKeys:status", { storageAvailable: true, key: null });
    renderApp("/dashboard/settings#usage");
    const usage = await screen.findByRole("region", { name: "Usage" });
    await waitFor(() => expect(scrolled.mock.contexts).toContain(usage));
    scrolled.mockClear();
    setQueryResult("profile:get", PROFILE);
    await screen.findByLabelText("Full Name");
    await waitFor(() => expect(scrolled.mock.contexts).toContain(usage));
  });

  it("says when own keys can't be stored on this deployment", async () => {
    await renderSettings(PROFILE, { storageAvailable: false, key: null });
    expect(screen.getByText(/Own API keys can't be stored on this deployment\./)).toBeInTheDocument();
    expect(screen.queryByLabelText("OpenRouter API key")).not.toBeInTheDocument();
  });
});

// Account settings: the owner's profile only, trimmed fields, and changing the password through
// the auth library (current password checked, other sessions signed out).
import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { GUESSABLE_PASSWORD_MESSAGE } from "./lib/passwordStrength";
import { createUser, createBackend, type TestBackend, useAuthKeys, errorOf } from "./test.helpers";

// Password hashing (scrypt) is slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

useAuthKeys();

function signIn(t: TestBackend, email: string, password: string, flow: "signUp" | "signIn") {
  return t.action(api.auth.signIn, { provider: "password", params: { email, password, flow } });
}

/** A real account with two sessions; acts through the newest. */
async function signedUp(t: TestBackend) {
  await signIn(t, "ada@example.com", "first-password", "signUp");
  await signIn(t, "ada@example.com", "first-password", "signIn");
  const sessions = await t.run((ctx) => ctx.db.query("authSessions").collect());
  const current = sessions.at(-1)!;
  const userId = current.userId as Id<"users">;
  return { userId, current, as: t.withIdentity({ subject: `${userId}|${current._id}` }) };
}

describe("profile", () => {
  test("each user reads and updates only their own profile; values are trimmed, empty saved as null", async () => {
    const t = createBackend();
    const ada = await createUser(t, "ada@example.com");
    const bob = await createUser(t, "bob@example.com", { fullName: "Bob" });
    await ada.as.mutation(api.profile.update, { fullName: "  Ada Lovelace ", avatarUrl: "   " });
    const mine = await ada.as.query(api.profile.get, {});
    expect(mine).toMatchObject({ id: ada.userId, email: "ada@example.com", fullName: "Ada Lovelace", avatarUrl: null });
    expect(await bob.as.query(api.profile.get, {})).toMatchObject({ id: bob.userId, fullName: "Bob" });
    expect(
      await errorOf(ada.as.mutation(api.profile.update, { fullName: null, avatarUrl: "javascript:alert(1)" })),
    ).toMatchObject({
      code: "INVALID_INPUT",
      field: "avatarUrl",
    });
  });
});

describe("change password", () => {
  test("a wrong current password is refused and nothing changes", async () => {
    const t = createBackend();
    const { as } = await signedUp(t);
    expect(
      await errorOf(
        as.action(api.profile.changePassword, { currentPassword: "wrong-password", newPassword: "second-password" }),
      ),
    ).toEqual({
      code: "INVALID_INPUT",
      field: "currentPassword",
      message: "Current password is incorrect.",
    });
    expect((await signIn(t, "ada@example.com", "first-password", "signIn")).tokens).toBeTruthy();
  });

  test("guessing the current password meets the sign-in back-off", async () => {
    const t = createBackend();
    const { as } = await signedUp(t);
    for (let i = 0; i < 5; i++) {
      expect(
        await errorOf(
          as.action(api.profile.changePassword, {
            currentPassword: `wrong-password-${i}`,
            newPassword: "second-password",
          }),
        ),
      ).toMatchObject({
        message: "Current password is incorrect.",
      });
    }
    expect(
      await errorOf(
        as.action(api.profile.changePassword, { currentPassword: "first-password", newPassword: "second-password" }),
      ),
    ).toMatchObject({
      code: "RATE_LIMITED",
      field: "currentPassword",
    });
    // One back-off per account: sign-in from an unknown browser waits too.
    await expect(signIn(t, "ada@example.com", "first-password", "signIn")).rejects.toThrow(
      /Too many failed attempts for this account/,
    );
  });

  test("a short, unchanged, common or guessable new password is refused", async () => {
    const t = createBackend();
    const { as } = await signedUp(t);
    expect(
      await errorOf(as.action(api.profile.changePassword, { currentPassword: "first-password", newPassword: "short" })),
    ).toMatchObject({
      code: "INVALID_INPUT",
      field: "newPassword",
      message: "Password must be at least 8 characters.",
    });
    expect(
      await errorOf(
        as.action(api.profile.changePassword, { currentPassword: "first-password", newPassword: "first-password" }),
      ),
    ).toMatchObject({ field: "newPassword" });
    // The sign-up rule, the same here: not only whitespace, at most 128 characters.
    expect(
      await errorOf(
        as.action(api.profile.changePassword, { currentPassword: "first-password", newPassword: " ".repeat(12) }),
      ),
    ).toMatchObject({
      field: "newPassword",
      message: "Password cannot be only spaces.",
    });
    expect(
      await errorOf(
        as.action(api.profile.changePassword, { currentPassword: "first-password", newPassword: "y".repeat(129) }),
      ),
    ).toMatchObject({
      field: "newPassword",
      message: "Password must be at most 128 characters.",
    });
    // No common or trivially guessable password (NIST SP 800-63B), as on sign-up and reset.
    for (const newPassword of ["12345678", "aaaaaaaa"]) {
      expect(
        await errorOf(as.action(api.profile.changePassword, { currentPassword: "first-password", newPassword })),
      ).toMatchObject({ code: "INVALID_INPUT", field: "newPassword", message: GUESSABLE_PASSWORD_MESSAGE });
    }
  });

  test("the new password works, the old one no longer does, and other sessions are signed out", async () => {
    const t = createBackend();
    const { as, current, userId } = await signedUp(t);
    const before = await t.run((ctx) => ctx.db.query("authSessions").collect());
    expect(before).toHaveLength(2);
    const otherDevice = t.withIdentity({ subject: `${userId}|${before[0]._id}` });
    expect(await otherDevice.query(api.profile.get, {})).toMatchObject({ email: "ada@example.com" });
    await as.action(api.profile.changePassword, { currentPassword: "first-password", newPassword: "second-password" });
    const sessions = await t.run((ctx) => ctx.db.query("authSessions").collect());
    expect(sessions.map((session) => session._id)).toEqual([current._id]);
    // The other device's token is refused at once, not when it expires; this one keeps working.
    await expect(otherDevice.query(api.profile.get, {})).rejects.toThrow(/Please sign in/);
    expect(await as.query(api.profile.get, {})).toMatchObject({ email: "ada@example.com" });
    await expect(signIn(t, "ada@example.com", "first-password", "signIn")).rejects.toThrow();
    expect((await signIn(t, "ada@example.com", "second-password", "signIn")).tokens).toBeTruthy();
  });
});

// In two browsers: A creates a team and
// invites B by email; B opens the link signed out, signs up through it and joins; A sees B arrive
// without a reload; A removes B and B's open team page turns into the access-lost screen.
import { describe, expect, test } from "vitest";
import { PASSWORD, signUp, uniqueEmail, useE2E } from "./harness";

const e2e = useE2E();

describe("teams", () => {
  test("invite by link, sign up through it, join; removal ends access on the open page at once", async () => {
    const owner = await e2e.newPage();
    const ownerEmail = uniqueEmail("ann");
    await signUp(owner, ownerEmail, PASSWORD);

    await owner.goto("/dashboard/teams");
    await owner.getByText("No teams yet").waitFor();
    await owner.getByLabel("Team name").fill("Acme Research");
    await owner.getByRole("button", { name: "Create Team" }).click();
    await owner.getByRole("heading", { name: "Acme Research" }).waitFor();
    // The new team is the chosen space.
    await owner.getByRole("button", { name: "Space: Acme Research" }).waitFor();

    const inviteeEmail = uniqueEmail("bob");
    await owner.getByLabel("Email", { exact: true }).fill(inviteeEmail);
    await owner.getByLabel("Role", { exact: true }).selectOption("member");
    await owner.getByRole("button", { name: "Invite", exact: true }).click();
    const link = await owner.getByLabel("Invitation link").inputValue();
    expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{22}$/);
    await owner.getByTestId("pending-invitation").filter({ hasText: inviteeEmail }).waitFor();

    // B, signed out in a browser of their own, signs up through the invitation and comes back to it.
    const invitee = await e2e.newPage();
    await invitee.goto(new URL(link).pathname);
    await invitee.getByRole("heading", { name: "Join Acme Research" }).waitFor();
    await invitee.getByRole("link", { name: "Create Account" }).click();
    await invitee.waitForURL((url) => url.pathname === "/signup");
    await signUp(invitee, inviteeEmail, PASSWORD);
    await invitee.waitForURL((url) => url.pathname.startsWith("/invite/"));
    await invitee.getByRole("button", { name: "Join Acme Research" }).click();
    await invitee.getByRole("heading", { name: "Acme Research" }).waitFor();
    await invitee.getByText("Your role: Member").waitFor();

    // A's page shows B as a member, and the invitation gone, without a reload.
    await owner.getByTestId("team-member").filter({ hasText: inviteeEmail }).waitFor();
    await owner.getByText("No pending invitations").waitFor();

    await owner.getByRole("button", { name: `Remove ${inviteeEmail}` }).click();
    await owner.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click();
    await owner.getByTestId("team-member").filter({ hasText: inviteeEmail }).waitFor({ state: "detached" });

    await invitee.getByText("You no longer have access to this team").waitFor();
    await invitee.getByRole("button", { name: "Space: Personal" }).waitFor();

    await owner.context().close();
    await invitee.context().close();
  });
});

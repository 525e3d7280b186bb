import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { describe, expect, it, vi } from "vitest";

import {
  callMock,
  makeViewer,
  mockCall,
  QueryFailure,
  setQueryResult,
  setSignedIn,
  setSignedOut,
} from "@/test/convex-mock";
import { renderApp } from "@/test/render-app";
import { TEAM_MESSAGES } from "../../../convex/lib/teams";
import { SPACE_STORAGE_KEY } from "@/lib/space-context";

const TEAM_ID = "k57teamteamteamteamteamteam01";
const ME = makeViewer({ email: "ann@example.com" });

function team(myRole: "owner" | "member" | "viewer") {
  return {
    teamId: TEAM_ID,
    name: "Acme",
    createdAt: Date.UTC(2026, 0, 1),
    myRole,
    members: [
      { userId: "u1", email: "ann@example.com", name: "Ann", role: myRole, isMe: true },
      { userId: "u2", email: "bob@example.com", name: null, role: "member", isMe: false },
    ],
  };
}

function signedInWith(role: "owner" | "member" | "viewer" = "owner") {
  setSignedIn(ME);
  setQueryResult("teams:mine", [{ teamId: TEAM_ID, name: "Acme", role }]);
  setQueryResult("teams:get", team(role));
  setQueryResult("teams:invitations", []);
}

describe("Teams page", () => {
  it("shows the empty state, refuses an empty name and creates a team, then opens it as the chosen space", async () => {
    const user = userEvent.setup();
    signedInWith();
    setQueryResult("teams:mine", []);
    mockCall("teams:create", async () => {
      // As on Convex, the caller's queries show the mutation's result by the time it resolves.
      setQueryResult("teams:mine", [{ teamId: TEAM_ID, name: "Acme", role: "owner" }]);
      return { teamId: TEAM_ID };
    });
    const { router } = renderApp("/dashboard/teams");
    expect(await screen.findByRole("heading", { name: "Teams", level: 1 })).toBeInTheDocument();
    expect(screen.getByText("No teams yet")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Create Team" }));
    expect(await screen.findByText(TEAM_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(callMock("teams:create")).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText("Team name"), "  Acme  ");
    await user.click(screen.getByRole("button", { name: "Create Team" }));
    await waitFor(() => expect(callMock("teams:create")).toHaveBeenCalledWith({ name: "Acme" }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/dashboard/teams/${TEAM_ID}`));
    expect(window.localStorage.getItem(SPACE_STORAGE_KEY)).toBe(TEAM_ID);
  });

  it("lists my teams with my role", async () => {
    signedInWith("viewer");
    renderApp("/dashboard/teams");
    const list = await screen.findByRole("region", { name: "Your teams" });
    expect(within(list).getByRole("link", { name: /Acme/ })).toHaveAttribute("href", `/dashboard/teams/${TEAM_ID}`);
    expect(within(list).getByText("Viewer")).toBeInTheDocument();
  });

  it("owner: invites by email with a role and gets a copyable link; sees pending invitations and revokes one", async () => {
    const user = userEvent.setup();
    signedInWith("owner");
    setQueryResult("teams:invitations", [
      {
        invitationId: "inv1",
        email: "carol@example.com",
        role: "viewer",
        token: "tok-carol",
        expiresAt: Date.now() + 86_400_000,
        createdAt: 0,
      },
    ]);
    mockCall("teams:invite", async () => ({ invitationId: "inv2", token: "tok-new", emailed: false }));
    renderApp(`/dashboard/teams/${TEAM_ID}`);
    expect(await screen.findByRole("heading", { name: "Acme" })).toBeInTheDocument();

    const members = screen.getAllByTestId("team-member");
    expect(members.map((row) => row.textContent)).toEqual([
      expect.stringContaining("Ann (you)"),
      expect.stringContaining("bob@example.com"),
    ]);
    expect(screen.getByLabelText("Role of bob@example.com")).toHaveValue("member");

    await user.type(screen.getByLabelText("Email"), "Dan@Example.com");
    await user.selectOptions(screen.getByLabelText("Role"), "viewer");
    await user.click(screen.getByRole("button", { name: "Invite" }));
    await waitFor(() =>
      expect(callMock("teams:invite")).toHaveBeenCalledWith({
        teamId: TEAM_ID,
        email: "dan@example.com",
        role: "viewer",
      }),
    );
    expect(await screen.findByLabelText("Invitation link")).toHaveValue(`${window.location.origin}/invite/tok-new`);
    expect(screen.getByText(/Invitation created for dan@example.com/)).toBeInTheDocument();

    const pending = screen.getByTestId("pending-invitation");
    expect(pending).toHaveTextContent("carol@example.com");
    await user.click(within(pending).getByRole("button", { name: "Revoke invitation for carol@example.com" }));
    await waitFor(() => expect(callMock("teams:revokeInvitation")).toHaveBeenCalledWith({ invitationId: "inv1" }));
  });

  it("owner: changes a role and removes a member after confirming", async () => {
    const user = userEvent.setup();
    signedInWith("owner");
    renderApp(`/dashboard/teams/${TEAM_ID}`);
    await user.selectOptions(await screen.findByLabelText("Role of bob@example.com"), "viewer");
    await waitFor(() =>
      expect(callMock("teams:setRole")).toHaveBeenCalledWith({ teamId: TEAM_ID, userId: "u2", role: "viewer" }),
    );

    await user.click(screen.getByRole("button", { name: "Remove bob@example.com" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent("Remove member?");
    await user.click(within(dialog).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(callMock("teams:removeMember")).toHaveBeenCalledWith({ teamId: TEAM_ID, userId: "u2" }));
  });

  it("viewer: sees the members and their roles but no invite form, role pickers or delete", async () => {
    signedInWith("viewer");
    renderApp(`/dashboard/teams/${TEAM_ID}`);
    expect(await screen.findByText("Your role: Viewer")).toBeInTheDocument();
    expect(screen.getAllByTestId("team-member")).toHaveLength(2);
    expect(screen.queryByRole("button", { name: "Invite" })).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Role of bob@example.com")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Delete Team/ })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Leave Team/ })).toBeInTheDocument();
  });

  it("the last owner's leave is refused with the server's reason and the dialog stays open", async () => {
    const user = userEvent.setup();
    vi.spyOn(console, "error").mockImplementation(() => {});
    signedInWith("owner");
    mockCall("teams:leave", async () => {
      throw new ConvexError({ code: "CONFLICT", message: TEAM_MESSAGES.lastOwnerLeave });
    });
    renderApp(`/dashboard/teams/${TEAM_ID}`);
    await user.click(await screen.findByRole("button", { name: /Leave Team/ }));
    const dialog = await screen.findByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: "Leave Team" }));
    await waitFor(() => expect(callMock("teams:leave")).toHaveBeenCalledWith({ teamId: TEAM_ID }));
    expect(await screen.findByText(TEAM_MESSAGES.lastOwnerLeave)).toBeInTheDocument();
    expect(screen.getByRole("alertdialog")).toBeInTheDocument();
  });

  it("owner: deletes the team after confirming and returns to the list", async () => {
    const user = userEvent.setup();
    signedInWith("owner");
    const { router } = renderApp(`/dashboard/teams/${TEAM_ID}`);
    await user.click(await screen.findByRole("button", { name: /Delete Team/ }));
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent("This action cannot be undone.");
    await user.click(within(dialog).getByRole("button", { name: "Delete Team" }));
    await waitFor(() => expect(callMock("teams:remove")).toHaveBeenCalledWith({ teamId: TEAM_ID }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/teams"));
  });

  it("a removed member's open team page turns into the access-lost screen", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    signedInWith("member");
    renderApp(`/dashboard/teams/${TEAM_ID}`);
    expect(await screen.findByRole("heading", { name: "Acme" })).toBeInTheDocument();
    setQueryResult(
      "teams:get",
      Object.assign(new QueryFailure("gone"), { data: { code: "NOT_FOUND", message: TEAM_MESSAGES.notFound } }),
    );
    expect(await screen.findByText("You no longer have access to this team")).toBeInTheDocument();
  });
});

describe("team page errors", () => {
  it("a malformed team address says the team is not found", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    signedInWith("member");
    setQueryResult(
      "teams:get",
      new QueryFailure("[CONVEX Q(teams:get)] ArgumentValidationError: Value does not match validator."),
    );
    renderApp("/dashboard/teams/garbage");
    expect(await screen.findByText("Team not found")).toBeInTheDocument();
  });

  it("another failure offers Try Again", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    signedInWith("member");
    setQueryResult("teams:get", new QueryFailure("[CONVEX Q(teams:get)] Server Error"));
    renderApp(`/dashboard/teams/${TEAM_ID}`);
    expect(await screen.findByText("Failed to load the team")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try Again" })).toBeInTheDocument();
  });
});

describe("space switcher", () => {
  it("offers Personal and my teams, and keeps the choice", async () => {
    const user = userEvent.setup();
    signedInWith("member");
    setQueryResult("teams:mine", [
      { teamId: TEAM_ID, name: "Acme", role: "member" },
      { teamId: "k57other", name: "Beta", role: "viewer" },
    ]);
    renderApp("/dashboard/teams");
    await user.click(await screen.findByRole("button", { name: "Space: Personal" }));
    await user.click(await screen.findByRole("menuitem", { name: /Beta/ }));
    expect(await screen.findByRole("button", { name: "Space: Beta" })).toBeInTheDocument();
    expect(window.localStorage.getItem(SPACE_STORAGE_KEY)).toBe("k57other");
  });

  it("falls back to Personal when I am no longer in the stored team", async () => {
    window.localStorage.setItem(SPACE_STORAGE_KEY, "k57gone");
    signedInWith("member");
    renderApp("/dashboard/teams");
    expect(await screen.findByRole("button", { name: "Space: Personal" })).toBeInTheDocument();
    await waitFor(() => expect(window.localStorage.getItem(SPACE_STORAGE_KEY)).toBeNull());
  });
});

describe("ways to the Teams page", () => {
  it("the user menu has a Teams entry", async () => {
    const user = userEvent.setup();
    signedInWith("member");
    renderApp("/dashboard/settings");
    await user.click(await screen.findByRole("button", { name: "User menu" }));
    expect(await screen.findByRole("menuitem", { name: "Teams" })).toHaveAttribute("href", "/dashboard/teams");
  });

  it("the space switcher has Manage teams", async () => {
    const user = userEvent.setup();
    signedInWith("member");
    renderApp("/dashboard/settings");
    await user.click(await screen.findByRole("button", { name: "Space: Personal" }));
    expect(await screen.findByRole("menuitem", { name: "Manage teams" })).toHaveAttribute("href", "/dashboard/teams");
  });
});

describe("space switcher when the teams cannot load", () => {
  it("keeps the shell and the page working in the personal space", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    signedInWith("member");
    setQueryResult("teams:mine", new QueryFailure("backend down"));
    renderApp(`/dashboard/teams/${TEAM_ID}`);
    expect(await screen.findByRole("heading", { name: "Acme" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Space: Personal" })).toBeInTheDocument();
  });
});

describe("invitation acceptance", () => {
  const OPEN = {
    teamName: "Acme",
    email: "carol@example.com",
    role: "member",
    inviter: "Ann",
    expiresAt: Date.now() + 86_400_000,
    state: "open",
    forCaller: null,
    alreadyMember: false,
    teamId: TEAM_ID,
  };

  it("signed out: says who is invited and offers sign-in and sign-up that come back here", async () => {
    setSignedOut();
    setQueryResult("teams:invitation", OPEN);
    renderApp("/invite/tok-1");
    expect(await screen.findByRole("heading", { name: "Join Acme" })).toBeInTheDocument();
    expect(screen.getByText(/invited/)).toHaveTextContent("Ann invited carol@example.com to join as member.");
    expect(screen.getByRole("link", { name: "Sign In to Accept" })).toHaveAttribute(
      "href",
      "/login?redirect=%2Finvite%2Ftok-1",
    );
    expect(screen.getByRole("link", { name: "Create Account" })).toHaveAttribute(
      "href",
      "/signup?redirect=%2Finvite%2Ftok-1",
    );
  });

  it("signed in with another email: a clear message and no way to join", async () => {
    setSignedIn(makeViewer({ email: "eve@example.com" }));
    setQueryResult("teams:invitation", { ...OPEN, forCaller: false });
    renderApp("/invite/tok-1");
    expect(
      await screen.findByText(TEAM_MESSAGES.invitationOtherEmail("carol@example.com", "eve@example.com")),
    ).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Join Acme" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign Out" })).toBeInTheDocument();
  });

  it("signed in with the invited email: joins, makes the team the chosen space and opens it", async () => {
    const user = userEvent.setup();
    setSignedIn(makeViewer({ email: "carol@example.com" }));
    setQueryResult("teams:invitation", { ...OPEN, forCaller: true });
    setQueryResult("teams:mine", [{ teamId: TEAM_ID, name: "Acme", role: "member" }]);
    setQueryResult("teams:get", team("member"));
    mockCall("teams:accept", async () => ({ teamId: TEAM_ID }));
    const { router } = renderApp("/invite/tok-1");
    await user.click(await screen.findByRole("button", { name: "Join Acme" }));
    await waitFor(() => expect(callMock("teams:accept")).toHaveBeenCalledWith({ token: "tok-1" }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/dashboard/teams/${TEAM_ID}`));
    expect(window.localStorage.getItem(SPACE_STORAGE_KEY)).toBe(TEAM_ID);
  });

  it("shows the server's refusal when joining fails", async () => {
    const user = userEvent.setup();
    setSignedIn(makeViewer({ email: "carol@example.com" }));
    setQueryResult("teams:invitation", { ...OPEN, forCaller: true });
    mockCall("teams:accept", async () => {
      throw new ConvexError({ code: "CONFLICT", message: TEAM_MESSAGES.invitationRevoked });
    });
    renderApp("/invite/tok-1");
    await user.click(await screen.findByRole("button", { name: "Join Acme" }));
    expect(await screen.findByText(TEAM_MESSAGES.invitationRevoked)).toBeInTheDocument();
  });

  it("an expired, used or unknown invitation says so", async () => {
    setSignedOut();
    setQueryResult("teams:invitation", { ...OPEN, expiresAt: Date.now() - 1 });
    const first = renderApp("/invite/tok-1");
    expect(await screen.findByText(TEAM_MESSAGES.invitationExpired)).toBeInTheDocument();
    first.unmount();

    setQueryResult("teams:invitation", { ...OPEN, state: "accepted" });
    const second = renderApp("/invite/tok-1");
    expect(await screen.findByText(TEAM_MESSAGES.invitationUsed)).toBeInTheDocument();
    second.unmount();

    setQueryResult("teams:invitation", null);
    renderApp("/invite/nope");
    expect(await screen.findByText(TEAM_MESSAGES.invitationNotFound)).toBeInTheDocument();
  });
});

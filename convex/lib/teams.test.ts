import { describe, expect, test } from "vitest";
import {
  hasRole,
  invitationProblem,
  invitationStatus,
  lastOwnerProblem,
  TEAM_LIMITS,
  TEAM_MESSAGES,
  teamNameProblem,
} from "./teams";

describe("team rules", () => {
  test("roles nest: owner can do what a member can, a member what a viewer can, not the other way", () => {
    expect(hasRole("owner", "member")).toBe(true);
    expect(hasRole("member", "viewer")).toBe(true);
    expect(hasRole("viewer", "member")).toBe(false);
    expect(hasRole("member", "owner")).toBe(false);
  });

  test("a name is trimmed, required and at most 60 characters", () => {
    expect(teamNameProblem("  ")).toBe(TEAM_MESSAGES.nameRequired);
    expect(teamNameProblem("x".repeat(TEAM_LIMITS.nameMaxLength))).toBeNull();
    expect(teamNameProblem("x".repeat(TEAM_LIMITS.nameMaxLength + 1))).toBe(TEAM_MESSAGES.nameTooLong);
  });

  test("an invitation is pending until it expires 7 days on, unless used, declined or revoked first", () => {
    const sent = 1_000;
    const invitation = { email: "bob@example.com", expiresAt: sent + TEAM_LIMITS.invitationTtlMs };
    expect(invitationStatus(invitation, invitation.expiresAt - 1)).toBe("pending");
    expect(invitationStatus(invitation, invitation.expiresAt)).toBe("expired");
    expect(invitationStatus({ ...invitation, acceptedAt: 2 }, invitation.expiresAt + 1)).toBe("accepted");
    expect(invitationProblem(invitation, " BOB@example.com ", sent)).toBeNull();
    expect(invitationProblem(invitation, "eve@example.com", sent)).toBe(
      TEAM_MESSAGES.invitationOtherEmail("bob@example.com", "eve@example.com"),
    );
    expect(invitationProblem({ ...invitation, revokedAt: 5 }, "bob@example.com", sent)).toBe(
      TEAM_MESSAGES.invitationRevoked,
    );
    expect(invitationProblem(invitation, "bob@example.com", invitation.expiresAt)).toBe(
      TEAM_MESSAGES.invitationExpired,
    );
  });

  test("the last owner cannot leave, be removed or demoted; another owner, or anyone else, can", () => {
    expect(lastOwnerProblem(1, "owner", { kind: "leave" })).toBe(TEAM_MESSAGES.lastOwnerLeave);
    expect(lastOwnerProblem(1, "owner", { kind: "remove" })).toBe(TEAM_MESSAGES.lastOwnerRemove);
    expect(lastOwnerProblem(1, "owner", { kind: "setRole", role: "viewer" })).toBe(TEAM_MESSAGES.lastOwnerDemote);
    expect(lastOwnerProblem(1, "owner", { kind: "setRole", role: "owner" })).toBeNull();
    expect(lastOwnerProblem(2, "owner", { kind: "leave" })).toBeNull();
    expect(lastOwnerProblem(1, "member", { kind: "remove" })).toBeNull();
  });
});

// Teams: the roles, the invitation rules and the last-owner rule, framework-free so
// the Convex functions (convex/teams.ts) and the Teams screens (src/features/teams) share them.

/** owner: manages members and billing, can delete the team; member: runs tests, reviews, comments; viewer: sees everything, changes nothing. */
export const TEAM_ROLES = ["owner", "member", "viewer"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

const RANK: Record<TeamRole, number> = { viewer: 0, member: 1, owner: 2 };

/** True when `role` may do what `minimum` may (owner ⊃ member ⊃ viewer). */
export function hasRole(role: TeamRole, minimum: TeamRole): boolean {
  return RANK[role] >= RANK[minimum];
}

export const ROLE_LABELS: Record<TeamRole, string> = { owner: "Owner", member: "Member", viewer: "Viewer" };

export const ROLE_DESCRIPTIONS: Record<TeamRole, string> = {
  owner: "Manages members and billing, can delete the team.",
  member: "Runs tests in the team, reviews and comments.",
  viewer: "Sees everything, changes nothing.",
};

export const TEAM_LIMITS = {
  nameMaxLength: 60,
  /** Teams a user can belong to (the switcher and `mine` read at most this many). */
  teamsPerUser: 50,
  /** Members plus pending invitations of one team (its pages read at most this many). */
  seatsPerTeam: 100,
  /** 7 days. */
  invitationTtlMs: 7 * 24 * 60 * 60 * 1000,
  /** Invitations one person can send per hour, over all their teams: each may send an email. */
  invitationsPerHour: 30,
  /** Memberships or invitations a team deletion removes per transaction. */
  deletionBatch: 200,
} as const;

export const TEAM_MESSAGES = {
  nameRequired: "Team name is required.",
  nameTooLong: `Team name must be at most ${TEAM_LIMITS.nameMaxLength} characters.`,
  notFound: "Team not found, or you are no longer a member of it.",
  ownersOnly: "Only the team's owners can do this.",
  viewersRead: "Viewers can look but not change anything. Ask an owner for the member role.",
  /** A team test asked for by someone not (or no longer) in its team: its pages show the access-lost screen. */
  testAccessLost: "This test belongs to a team you are not a member of. Ask one of its owners to invite you.",
  tooManyTeams: `You can belong to at most ${TEAM_LIMITS.teamsPerUser} teams.`,
  teamFull: `A team can have at most ${TEAM_LIMITS.seatsPerTeam} members and pending invitations.`,
  alreadyMember: "This person is already a member of the team.",
  tooManyInvitations: "You have sent many invitations in the last hour. Please wait a while and try again.",
  lastOwnerLeave: "You are the team's last owner. Make someone else an owner first, or delete the team.",
  lastOwnerRemove: "The team's last owner cannot be removed. Make someone else an owner first.",
  lastOwnerDemote: "The team's last owner cannot be demoted. Make someone else an owner first.",
  memberNotFound: "This person is not a member of the team.",
  invitationNotFound: "This invitation link is not valid. Check that you copied all of it.",
  invitationExpired: "This invitation has expired. Ask the team owner for a new one.",
  invitationRevoked: "This invitation was withdrawn by the team owner.",
  invitationUsed: "This invitation has already been used.",
  invitationDeclined: "This invitation was declined.",
  invitationNoLongerPending: "This invitation is no longer pending.",
  invitationOtherEmail: (invited: string, signedIn: string) =>
    `This invitation is for ${invited}, but you are signed in as ${signedIn}. Sign out and sign in or sign up with ${invited} to accept it.`,
} as const;

/** The name as stored (trimmed), or why it cannot be used. */
export function teamNameProblem(raw: string): string | null {
  const name = raw.trim();
  if (name === "") return TEAM_MESSAGES.nameRequired;
  if ([...name].length > TEAM_LIMITS.nameMaxLength) return TEAM_MESSAGES.nameTooLong;
  return null;
}

export type InvitationStatus = "pending" | "expired" | "revoked" | "accepted" | "declined";

export interface InvitationState {
  readonly expiresAt: number;
  readonly acceptedAt?: number;
  readonly revokedAt?: number;
  readonly declinedAt?: number;
}

export function invitationStatus(invitation: InvitationState, now: number): InvitationStatus {
  if (invitation.acceptedAt !== undefined) return "accepted";
  if (invitation.revokedAt !== undefined) return "revoked";
  if (invitation.declinedAt !== undefined) return "declined";
  return now >= invitation.expiresAt ? "expired" : "pending";
}

/**
 * Why the user signed in as `email` cannot accept (or decline) this invitation, or null.
 * The states are checked before the address, so a used link says "used" to anyone.
 */
export function invitationProblem(
  invitation: InvitationState & { readonly email: string },
  email: string,
  now: number,
): string | null {
  switch (invitationStatus(invitation, now)) {
    case "accepted":
      return TEAM_MESSAGES.invitationUsed;
    case "revoked":
      return TEAM_MESSAGES.invitationRevoked;
    case "declined":
      return TEAM_MESSAGES.invitationDeclined;
    case "expired":
      return TEAM_MESSAGES.invitationExpired;
    case "pending":
      return sameEmail(invitation.email, email) ? null : TEAM_MESSAGES.invitationOtherEmail(invitation.email, email);
  }
}

function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * The last-owner rule: a team always keeps an owner. `owners` is the number of owners now;
 * `change` is what happens to a member whose role is `role`. Returns the refusal, or null.
 */
export function lastOwnerProblem(
  owners: number,
  role: TeamRole,
  change: { kind: "leave" } | { kind: "remove" } | { kind: "setRole"; role: TeamRole },
): string | null {
  if (role !== "owner" || owners > 1) return null;
  if (change.kind === "leave") return TEAM_MESSAGES.lastOwnerLeave;
  if (change.kind === "remove") return TEAM_MESSAGES.lastOwnerRemove;
  return change.role === "owner" ? null : TEAM_MESSAGES.lastOwnerDemote;
}

/** The acceptance page's path for a token (the inviter copies `origin + invitePath(token)`). */
export function invitePath(token: string): string {
  return `/invite/${encodeURIComponent(token)}`;
}

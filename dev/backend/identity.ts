import { createLocalJWKSet, errors as joseErrors, jwtVerify } from "jose";
import type { JWTPayload } from "jose";
import type { UserIdentity } from "convex/server";

/** A provider entry of convex/auth.config.ts that this backend can verify. */
export type TrustedIssuer = { domain: string; applicationID: string };

export type VerifiedIdentity = {
  identity: UserIdentity;
  /** Expiry in epoch milliseconds, when the token has one. */
  expiresAt: number | undefined;
};

export class TokenRejected extends Error {}

// Standard OIDC claims and the identity attribute Convex exposes them as.
const IDENTITY_ATTRIBUTE_BY_CLAIM: Record<string, string> = {
  name: "name",
  given_name: "givenName",
  family_name: "familyName",
  nickname: "nickname",
  preferred_username: "preferredUsername",
  profile: "profileUrl",
  picture: "pictureUrl",
  email: "email",
  email_verified: "emailVerified",
  gender: "gender",
  birthdate: "birthday",
  zoneinfo: "timezone",
  locale: "language",
  phone_number: "phoneNumber",
  phone_number_verified: "phoneNumberVerified",
  address: "address",
  updated_at: "updatedAt",
};
// Claims that describe the token rather than the user.
const TOKEN_CLAIMS = new Set(["iss", "sub", "aud", "exp", "iat", "nbf", "jti"]);

function identityFromClaims(claims: JWTPayload): UserIdentity {
  const identity: Record<string, unknown> = {};
  for (const [claim, value] of Object.entries(claims)) {
    if (TOKEN_CLAIMS.has(claim)) continue;
    identity[IDENTITY_ATTRIBUTE_BY_CLAIM[claim] ?? claim] = value;
  }
  identity.subject = claims.sub;
  identity.issuer = claims.iss;
  identity.tokenIdentifier = `${claims.iss}|${claims.sub}`;
  return identity as UserIdentity;
}

/**
 * Verifies JWTs the way a Convex deployment does for the providers of
 * auth.config.ts, using this stack's own JWKS: signature (RS256), issuer,
 * audience (the provider's applicationID) and expiry.
 */
export class TokenVerifier {
  private readonly keySet: ReturnType<typeof createLocalJWKSet>;

  constructor(
    jwks: string,
    private readonly trustedIssuers: TrustedIssuer[],
  ) {
    this.keySet = createLocalJWKSet(JSON.parse(jwks) as { keys: [] });
  }

  async verify(token: string): Promise<VerifiedIdentity> {
    const issuers = this.trustedIssuers.map((issuer) => issuer.domain);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keySet, {
        algorithms: ["RS256"],
        issuer: issuers,
        audience: this.trustedIssuers.map((issuer) => issuer.applicationID),
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw new TokenRejected("Token expired");
      }
      const reason = error instanceof Error ? error.message : String(error);
      throw new TokenRejected(
        `Could not verify OIDC token claim. Check that the token signature is valid and the token hasn't expired. (${reason})`,
      );
    }
    const provider = this.trustedIssuers.find((issuer) => issuer.domain === payload.iss);
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!provider || !audiences.includes(provider.applicationID)) {
      throw new TokenRejected(
        `No auth provider found matching the given token (issuer ${payload.iss}, audience ${audiences.join(",")})`,
      );
    }
    if (typeof payload.sub !== "string") {
      throw new TokenRejected("Token has no subject");
    }
    return {
      identity: identityFromClaims(payload),
      expiresAt: payload.exp === undefined ? undefined : payload.exp * 1000,
    };
  }
}

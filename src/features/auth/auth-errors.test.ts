import { ConvexError } from "convex/values";
import { describe, expect, it } from "vitest";

import { authErrorMessage, INVALID_CREDENTIALS_MESSAGE, isUnknownAccountError } from "./auth-errors";

const serverError = (detail: string) =>
  new Error(
    `[CONVEX A(auth:signIn)] [Request ID: 0f1e2d3c] Server Error\nUncaught Error: ${detail}\n    at authorize (../convex/auth.ts:40:11)\n  Called by client`,
  );

describe("authErrorMessage", () => {
  it("shows a ConvexError's message", () => {
    const error = new ConvexError({ code: "INVALID_INPUT", message: "Please enter a valid email address." });
    expect(authErrorMessage(error)).toBe("Please enter a valid email address.");
  });

  it("maps the auth library's credential errors to one sentence", () => {
    expect(authErrorMessage(serverError("InvalidSecret"))).toBe(INVALID_CREDENTIALS_MESSAGE);
    expect(authErrorMessage(serverError("InvalidAccountId"))).toBe(INVALID_CREDENTIALS_MESSAGE);
  });

  it("explains an existing account and rate limiting", () => {
    expect(authErrorMessage(serverError("Account a@b.co already exists"))).toMatch(/already exists/);
    expect(authErrorMessage(serverError("TooManyFailedAttempts"))).toMatch(/Too many/);
  });

  it("shows other errors without the request id and stack", () => {
    expect(authErrorMessage(serverError("Something odd"))).toBe("Something odd");
    expect(authErrorMessage(new Error("Failed to fetch"))).toBe("Failed to fetch");
    expect(
      authErrorMessage(new Error("[CONVEX A(auth:signIn)] [Request ID: 1] Server Error\n  Called by client")),
    ).toBe("Something went wrong. Please try again.");
  });

  it("turns the library's provider text and the validators' technical texts into sentences", () => {
    expect(
      authErrorMessage(serverError("Provider `github` is not configured, available providers are password.")),
    ).toBe("This way of signing in is not available on this site.");
    const validator = new Error(
      "[CONVEX A(auth:signIn)] [Request ID: 9] Server Error\nArgumentValidationError: Value does not match validator.\nPath: .provider\nValue: 1\nValidator: v.string()\n  Called by client",
    );
    expect(authErrorMessage(validator)).toBe(
      "Some of what you entered was not accepted. Please check it and try again.",
    );
    expect(authErrorMessage(validator)).not.toMatch(/Validator|Path/);
  });

  it("recognises an unknown account", () => {
    expect(isUnknownAccountError(serverError("InvalidAccountId"))).toBe(true);
    expect(isUnknownAccountError(serverError("InvalidSecret"))).toBe(false);
  });
});

import { ConvexError } from "convex/values";
import { describe, expect, it } from "vitest";

import { ERROR_CODES } from "../../convex/lib/errors";
import { appErrorData, errorMessage } from "./errors";

describe("a refused call on the client", () => {
  it("reads each of the server's codes with its message", () => {
    for (const code of ERROR_CODES) {
      expect(appErrorData(new ConvexError({ code, message: "No." }))).toEqual({ code, message: "No." });
    }
  });

  it("reads a code the server does not send as ERROR, keeping the message for the user", () => {
    const error = new ConvexError({ code: "NOT_A_CODE", message: "That name is taken." });
    expect(appErrorData(error)).toEqual({ code: "ERROR", message: "That name is taken." });
    expect(errorMessage(error)).toBe("That name is taken.");
  });

  it("types the code as the server's union, so a misspelt code does not compile", () => {
    const data = appErrorData(new ConvexError({ code: "NOT_FOUND", message: "Gone." }));
    // @ts-expect-error "NOT_FUND" is none of convex/lib/errors.ts ERROR_CODES.
    expect(data?.code === "NOT_FUND").toBe(false);
    expect(data?.code === "NOT_FOUND").toBe(true);
  });
});

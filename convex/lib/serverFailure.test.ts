import { describe, expect, it } from "vitest";
import { asServerFailureReason, serverFailureOf } from "./serverFailure";

describe("server failures while signing in", () => {
  it("tells a time-out and a write conflict, as the deployment words them, from a refusal", () => {
    expect(serverFailureOf("Function execution timed out (maximum duration: 1s)")).toBe("time-out");
    expect(
      serverFailureOf(
        'Documents read from or written to the table "counters" changed while this mutation was being run and on every subsequent retry. Another call to this mutation changed the document with ID "12counters". See https://docs.convex.dev/error#1',
      ),
    ).toBe("conflict");
    expect(serverFailureOf("InvalidSecret")).toBeNull();
    expect(serverFailureOf("Account ada@example.com already exists")).toBeNull();
  });

  it("accepts only its own reasons from a client", () => {
    expect(asServerFailureReason("time-out")).toBe("time-out");
    expect(asServerFailureReason("conflict")).toBe("conflict");
    expect(asServerFailureReason("anything else")).toBeNull();
    expect(asServerFailureReason(undefined)).toBeNull();
  });
});

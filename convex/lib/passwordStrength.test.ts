import { describe, expect, test } from "vitest";
import { passwordProblem } from "./credentials";
import { GUESSABLE_PASSWORD_MESSAGE, guessablePasswordProblem } from "./passwordStrength";

describe("no common or guessable password (NIST SP 800-63B)", () => {
  test("commonly used and leaked passwords, repeats, sequences and keyboard walks are refused", () => {
    const common = [
      "12345678",
      "aaaaaaaa",
      "123456789",
      "password",
      "password1",
      "Password123",
      "p@ssw0rd",
      "qwertyuiop",
      "1q2w3e4r",
      "11111111",
      "abcdefgh",
      "iloveyou",
      "sunshine1",
      "football",
      "baseball1",
      "letmein!",
      "drowssap", // "password" reversed
      "zzzzzzzzzzzz",
      "abcabcabcabc",
      "01012000",
    ];
    for (const password of common) {
      // Each passes the length rule, so only this rule stands between it and an account.
      expect(passwordProblem(password), password).toBeNull();
      expect(guessablePasswordProblem(password), password).toBe(GUESSABLE_PASSWORD_MESSAGE);
    }
  });

  test("strong passwords, and those the demo account and the tests use, are accepted", () => {
    const strong = [
      "correct horse battery staple",
      "Tr0ub4dor&3-extra",
      "xK9#mQ2vL!pz",
      "demo-password-123",
      "e2e-password-123",
      "admin-password-123",
      "first-password",
      "second-password",
      "correct horse",
    ];
    for (const password of strong) expect(guessablePasswordProblem(password), password).toBeNull();
  });
});

import { describe, expect, test } from "vitest";
import { passwordProblem } from "./credentials";
import {
  GUESSABLE_PASSWORD_MESSAGE,
  PERSONAL_PASSWORD_MESSAGE,
  guessablePasswordProblem,
  personalParts,
} from "./passwordStrength";

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
      "tasting-panel-123",
      "e2e-password-123",
      "head-juror-123",
      "steady-runner-1",
      "first-password",
      "second-password",
      "correct horse",
    ];
    for (const password of strong) expect(guessablePasswordProblem(password), password).toBeNull();
  });
});

describe("no password containing the owner's email or name (zxcvbn's user inputs)", () => {
  const owner = { email: "Ada.Lovelace@example.com", name: "Grace Hopper" };

  test("the email, its local part, the name and its words are refused, in any case and inside longer passwords", () => {
    const personal = [
      "ada.lovelace@example.com",
      "Ada.Lovelace@Example.com",
      "ada.lovelace",
      "my-ada.lovelace-2024",
      "lovelace-rocks-99",
      "GraceHopper!2024",
      "grace hopper forever",
      "xx-hopper-xx-42",
    ];
    for (const password of personal) {
      expect(passwordProblem(password), password).toBeNull();
      expect(guessablePasswordProblem(password, owner), password).toBe(PERSONAL_PASSWORD_MESSAGE);
      // Without knowing whose it is, a few of these would pass: the owner's details are what refuse them.
    }
    expect(guessablePasswordProblem("lovelace-rocks-99")).toBeNull();
    expect(guessablePasswordProblem("xx-hopper-xx-42")).toBeNull();
  });

  test("other spellings of them are priced as guessable by zxcvbn (l33t, reversed)", () => {
    expect(guessablePasswordProblem("L0velace1", { email: "lovelace@example.com" })).toBe(GUESSABLE_PASSWORD_MESSAGE);
    expect(guessablePasswordProblem("L0velace1")).toBeNull();
    expect(guessablePasswordProblem("ecalevol1", { name: "Ada Lovelace" })).toBe(GUESSABLE_PASSWORD_MESSAGE);
    expect(guessablePasswordProblem("ecalevol1")).toBeNull();
  });

  test("a strong password that contains neither is accepted, and parts under 3 characters are not looked for", () => {
    expect(guessablePasswordProblem("correct horse battery", owner)).toBeNull();
    expect(personalParts({ email: "al@example.com", name: "Jo Li" })).toEqual(["al@example.com", "jo li", "joli"]);
    expect(guessablePasswordProblem("almost jolly horses", { email: "al@example.com", name: "Jo Li" })).toBeNull();
  });
});

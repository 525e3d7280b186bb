import { describe, expect, it } from "vitest";

import {
  API_KEY_MESSAGES,
  apiKeySchema,
  PASSWORD_CHANGE_MESSAGES,
  passwordChangeFormSchema,
  passwordChangeSchema,
  personaSchema,
  problemsOf,
  PROFILE_MESSAGES,
  profileSchema,
  RESPONSES_PER_TOPIC_MESSAGE,
  responsesPerTopicField,
} from "./forms";
import { CREDENTIAL_MESSAGES } from "./credentials";
import { PERSONA_LIMITS } from "./limits";

describe("form schemas shared by the forms and the Convex functions", () => {
  it("name each field's first problem, in field order", () => {
    expect(
      problemsOf(personaSchema, {
        name: "  ",
        description: "x".repeat(PERSONA_LIMITS.maxDescriptionLength + 1),
        systemPrompt: "Be kind.",
      }),
    ).toEqual([
      { field: "name", message: "Persona name is required." },
      { field: "description", message: "Persona description must be 500 characters or fewer." },
    ]);
    expect(
      personaSchema.parse({ name: " Pirate ", description: " Arr ", systemPrompt: " Talk like a pirate. " }),
    ).toEqual({
      name: "Pirate",
      description: "Arr",
      systemPrompt: "Talk like a pirate.",
    });
  });

  it("take responses per topic as typed: a whole number from 1 to 10", () => {
    expect(responsesPerTopicField.parse(" 7 ")).toBe(7);
    for (const typed of ["11", "0", "", "2.5", "1e1", "-1", "abc"]) {
      expect(problemsOf(responsesPerTopicField, typed)).toEqual([{ field: "", message: RESPONSES_PER_TOPIC_MESSAGE }]);
    }
  });

  it("store a profile trimmed, empty as null, and refuse an avatar that is not an http(s) URL", () => {
    expect(profileSchema.parse({ fullName: "  Ada  ", avatarUrl: "   " })).toEqual({
      fullName: "Ada",
      avatarUrl: null,
    });
    expect(problemsOf(profileSchema, { fullName: "x".repeat(101), avatarUrl: "javascript:alert(1)" })).toEqual([
      { field: "fullName", message: PROFILE_MESSAGES.fullNameTooLong },
      { field: "avatarUrl", message: PROFILE_MESSAGES.avatarUrlInvalid },
    ]);
  });

  it("trim an API key and refuse one with spaces inside or out of its length", () => {
    expect(apiKeySchema.parse({ key: "  sk-or-v1-abcdef  " })).toEqual({ key: "sk-or-v1-abcdef" });
    for (const key of ["sk-or v1-abcdef", "short", "x".repeat(513)]) {
      expect(problemsOf(apiKeySchema, { key })).toEqual([{ field: "key", message: API_KEY_MESSAGES.invalid }]);
    }
  });

  it("check a password change: the form shows every problem at once, the server needs no confirmation", () => {
    expect(
      problemsOf(passwordChangeFormSchema, { currentPassword: "", newPassword: "short", confirmPassword: "other" }),
    ).toEqual([
      { field: "currentPassword", message: PASSWORD_CHANGE_MESSAGES.currentRequired },
      { field: "newPassword", message: CREDENTIAL_MESSAGES.passwordTooShort },
      { field: "confirmPassword", message: PASSWORD_CHANGE_MESSAGES.mismatch },
    ]);
    expect(
      problemsOf(passwordChangeSchema, { currentPassword: "same-password", newPassword: "same-password" }),
    ).toEqual([{ field: "newPassword", message: PASSWORD_CHANGE_MESSAGES.mustDiffer }]);
    expect(problemsOf(passwordChangeSchema, { currentPassword: "old-password", newPassword: "new-password" })).toEqual(
      [],
    );
  });
});

// @vitest-environment node
// With an email sender configured (the offline stack's mailbox, which speaks Resend's API), a
// team invitation is emailed with its link; the inviter is still given the link to copy.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startMail, type RunningMail } from "../dev/mail/server";
import { api } from "./_generated/api";
import { createUser, createBackend } from "./test.helpers";

let mailbox: RunningMail;

beforeAll(async () => {
  mailbox = await startMail({ apiKey: "re_test_key" });
  process.env.RESEND_API_KEY = "re_test_key";
  process.env.RESEND_BASE_URL = mailbox.url;
  process.env.SITE_URL = "http://127.0.0.1:5173";
});
afterAll(async () => {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  delete process.env.SITE_URL;
  await mailbox.close();
});

describe("team invitations by email", () => {
  test("the invited address receives the link that the inviter can also copy", async () => {
    const t = createBackend();
    const ann = await createUser(t, "ann@example.com", { fullName: "Ann Lee" });
    const { teamId } = await ann.as.mutation(api.teams.create, { name: "Acme" });
    const { token, emailed } = await ann.as.mutation(api.teams.invite, {
      teamId,
      email: "Bob@Example.com",
      role: "viewer",
    });
    expect(emailed).toBe(true);
    // The scheduled sender runs on its own, as on a deployment.
    await vi.waitFor(() => expect(mailbox.messages).toHaveLength(1), { timeout: 10_000 });
    const message = mailbox.messages.at(-1);
    expect(message?.to).toEqual(["bob@example.com"]);
    expect(message?.subject).toBe("Ann Lee invited you to Acme on ModelJury");
    expect(message?.text).toContain(`http://127.0.0.1:5173/invite/${token}`);
    expect(message?.text).toContain("as viewer");
    expect(message?.text).toContain("expires in 7 days");
  });
});

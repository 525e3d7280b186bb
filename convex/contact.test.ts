import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import { CONTACT_MESSAGES, CONTACT_SUBJECTS } from "./lib/contact";
import { createUser, createBackend, errorOf } from "./test.helpers";

const VALID = {
  name: "Ada Lovelace",
  email: "Ada@Example.com",
  subject: "Bug Report",
  message: "The export button does nothing.",
};

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  delete process.env.RESEND_API_KEY;
  delete process.env.ADMIN_EMAILS;
});

describe("contact form", () => {
  test("a valid message is stored for anyone, signed in or not, and admins can list it", async () => {
    const t = createBackend();
    expect(await t.mutation(api.contact.submit, { ...VALID, website: "" })).toEqual({ received: true });
    const admin = await createUser(t, "boss@example.com", { isAdmin: true });
    const messages = await admin.as.query(api.contact.list, {});
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      name: "Ada Lovelace",
      email: "ada@example.com",
      subject: "Bug Report",
      emailed: false,
    });
    const plain = await createUser(t, "plain@example.com");
    expect(await errorOf(plain.as.query(api.contact.list, {}))).toMatchObject({ code: "FORBIDDEN" });
  });

  test("every field is checked: required, email format, one of the seven subjects, a sane maximum", async () => {
    const t = createBackend();
    const cases: [Partial<typeof VALID>, string, string][] = [
      [{ name: "  " }, "name", CONTACT_MESSAGES.nameRequired],
      [{ email: "" }, "email", CONTACT_MESSAGES.emailRequired],
      [{ email: "not-an-email" }, "email", CONTACT_MESSAGES.emailInvalid],
      [{ subject: "Complaint" }, "subject", CONTACT_MESSAGES.subjectRequired],
      [{ message: " " }, "message", CONTACT_MESSAGES.messageRequired],
      [{ message: "x".repeat(5001) }, "message", CONTACT_MESSAGES.messageTooLong],
    ];
    for (const [change, field, message] of cases) {
      expect(await errorOf(t.mutation(api.contact.submit, { ...VALID, ...change }))).toEqual({
        code: "INVALID_INPUT",
        field,
        message,
      });
    }
    // The counter says n/1000, but a longer message is accepted.
    await t.mutation(api.contact.submit, { ...VALID, message: "y".repeat(1500) });
    for (const subject of CONTACT_SUBJECTS) {
      await t.mutation(api.contact.submit, { ...VALID, email: `${subject.replace(/\s/g, "")}@example.com`, subject });
    }
    expect(await t.run((ctx) => ctx.db.query("contactMessages").collect())).toHaveLength(1 + CONTACT_SUBJECTS.length);
  });

  test("a filled honeypot looks accepted and is dropped: nothing stored, nothing sent", async () => {
    process.env.RESEND_API_KEY = "re_test";
    process.env.ADMIN_EMAILS = "boss@example.com";
    const fetchSpy = vi.fn(async () => new Response("{}", { status: 200 }));
    vi.stubGlobal("fetch", fetchSpy);
    const t = createBackend();
    expect(await t.mutation(api.contact.submit, { ...VALID, website: "https://spam.example" })).toEqual({
      received: true,
    });
    // Even an invalid bot submission gets the same answer.
    expect(await t.mutation(api.contact.submit, { ...VALID, email: "bad", website: "x" })).toEqual({ received: true });
    expect(await t.run((ctx) => ctx.db.query("contactMessages").collect())).toHaveLength(0);
    expect(await t.run((ctx) => ctx.db.system.query("_scheduled_functions").collect())).toHaveLength(0);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  test("the hidden field is bounded like every other field: a 1 MB value is refused and nothing is stored", async () => {
    const t = createBackend();
    expect(await errorOf(t.mutation(api.contact.submit, { ...VALID, website: "x".repeat(1024 * 1024) }))).toEqual({
      code: "INVALID_INPUT",
      field: "website",
      message: "This field must be at most 2,048 characters.",
    });
    expect(await t.run((ctx) => ctx.db.query("contactMessages").collect())).toHaveLength(0);
  });

  test("at most 3 messages per sender in 10 minutes, with a clear message; others are not affected", async () => {
    vi.useFakeTimers();
    const t = createBackend();
    for (let index = 0; index < 3; index++) await t.mutation(api.contact.submit, VALID);
    expect(await errorOf(t.mutation(api.contact.submit, { ...VALID, email: "ADA@example.com" }))).toEqual({
      code: "RATE_LIMITED",
      message: CONTACT_MESSAGES.rateLimited,
    });
    await t.mutation(api.contact.submit, { ...VALID, email: "grace@example.com" });
    vi.advanceTimersByTime(10 * 60 * 1000 + 1);
    await t.mutation(api.contact.submit, VALID);
    expect(await t.run((ctx) => ctx.db.query("contactMessages").collect())).toHaveLength(5);
  });

  test("with an email sender, the message is emailed to the admins with the sender as reply-to", async () => {
    vi.useFakeTimers();
    process.env.RESEND_API_KEY = "re_test";
    process.env.ADMIN_EMAILS = "boss@example.com, ops@example.com";
    const sent: { to: string[]; reply_to?: string; subject: string; text: string }[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init: RequestInit) => {
        sent.push(JSON.parse(String(init.body)));
        return new Response("{}", { status: 200 });
      }),
    );
    const t = createBackend();
    await t.mutation(api.contact.submit, VALID);
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    expect(sent.map((mail) => mail.to[0])).toEqual(["boss@example.com", "ops@example.com"]);
    expect(sent[0]).toMatchObject({ reply_to: "ada@example.com", subject: "[ModelJury contact] Bug Report" });
    expect(sent[0]!.text).toContain("The export button does nothing.");
    const [row] = await t.run((ctx) => ctx.db.query("contactMessages").collect());
    expect(row!.emailed).toBe(true);
  });

  test("without an email sender the message is only stored", async () => {
    const t = createBackend();
    await t.mutation(api.contact.submit, VALID);
    expect(await t.run((ctx) => ctx.db.system.query("_scheduled_functions").collect())).toHaveLength(0);
  });
});

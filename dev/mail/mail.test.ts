// The dev mailbox accepts exactly what the app's email sender (convex/core/email.ts) sends to
// Resend, and shows it on the inbox page; verification and sign-in flows through it are in
// convex/authEmail.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sendEmail } from "../../convex/core/email";
import { sixDigitCode, startMail, type RunningMail } from "./server";

let mail: RunningMail;

beforeAll(async () => {
  mail = await startMail({ apiKey: "re_dev_test" });
  process.env.RESEND_API_KEY = "re_dev_test";
  process.env.RESEND_BASE_URL = mail.url;
});
afterAll(async () => {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  await mail.close();
});

describe("dev mailbox", () => {
  test("the app's sender delivers to it; the inbox page lists the message and shows its code and links", async () => {
    await sendEmail({
      to: "ada@example.com",
      subject: "Verify your ModelJury email",
      text: "Your code: 042137\n\nOr open http://127.0.0.1:5173/?code=abc",
    });
    const listed = (await (await fetch(`${mail.url}/api/messages?to=ADA@example.com`)).json()) as {
      id: string;
      subject: string;
      from: string;
    }[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      subject: "Verify your ModelJury email",
      from: "ModelJury <onboarding@resend.dev>",
    });
    expect(mail.latestCodeTo("ada@example.com")).toBe("042137");

    const inbox = await (await fetch(`${mail.url}/`)).text();
    expect(inbox).toContain("Verify your ModelJury email");
    expect(inbox).toContain(`/messages/${listed[0].id}`);
    const message = await (await fetch(`${mail.url}/messages/${listed[0].id}`)).text();
    expect(message).toContain('data-testid="code">042137<');
    expect(message).toContain('<a href="http://127.0.0.1:5173/?code=abc">');
  });

  test("a wrong key is refused like Resend does, and nothing is stored", async () => {
    const before = mail.messages.length;
    const response = await fetch(`${mail.url}/emails`, {
      method: "POST",
      headers: { Authorization: "Bearer wrong", "Content-Type": "application/json" },
      body: JSON.stringify({ from: "a@b.co", to: ["c@d.co"], subject: "x", text: "y" }),
    });
    expect(response.status).toBe(401);
    expect(mail.messages.length).toBe(before);
  });

  test("message text is shown as text, never as markup", async () => {
    await sendEmail({
      to: "eve@example.com",
      subject: "<img src=x onerror=alert(1)>",
      text: "<script>alert(1)</script>",
    });
    const id = mail.latestTo("eve@example.com")!.id;
    const html = await (await fetch(`${mail.url}/messages/${id}`)).text();
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img src=x");
    expect(await (await fetch(`${mail.url}/`)).text()).not.toContain("<img src=x");
  });

  test("six-digit codes are found without a pattern, and only runs of exactly six", () => {
    expect(sixDigitCode("Your code: 123456.")).toBe("123456");
    expect(sixDigitCode("order 1234567 then 654321")).toBe("654321");
    expect(sixDigitCode("no code")).toBeUndefined();
  });
});

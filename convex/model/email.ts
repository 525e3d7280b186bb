// Outgoing email through Resend's HTTP API. Without RESEND_API_KEY the deployment has no
// sender: callers check `isEmailConfigured()` and say so instead of failing silently.
export function isEmailConfigured(): boolean {
  return Boolean(process.env.RESEND_API_KEY);
}

export async function sendEmail(message: { to: string; subject: string; text: string; replyTo?: string }) {
  const apiKey = process.env.RESEND_API_KEY;
  if (!apiKey) throw new Error("Email is not configured on this deployment.");
  const baseUrl = process.env.RESEND_BASE_URL ?? "https://api.resend.com";
  const response = await fetch(`${baseUrl}/emails`, {
    method: "POST",
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      from: process.env.AUTH_EMAIL_FROM ?? "ModelJury <onboarding@resend.dev>",
      to: [message.to],
      subject: message.subject,
      text: message.text,
      reply_to: message.replyTo,
    }),
  });
  if (!response.ok) {
    throw new Error(`Could not send email (HTTP ${response.status}): ${await response.text()}`);
  }
}

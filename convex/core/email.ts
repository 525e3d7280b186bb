// Outgoing email through Resend's HTTP API. Without RESEND_API_KEY the deployment has no
// sender: callers check `isEmailConfigured()` and say so instead of failing silently.
import { env } from "../env";

export function isEmailConfigured(): boolean {
  return env.resendApiKey() !== undefined;
}

export async function sendEmail(message: { to: string; subject: string; text: string; replyTo?: string }) {
  const apiKey = env.resendApiKey();
  if (!apiKey) throw new Error("Email is not configured on this deployment.");
  const response = await fetch(`${env.resendBaseUrl()}/emails`, {
    method: "POST",
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      from: env.authEmailFrom(),
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

// The deployment's settings, read in one place. Convex's typed `env` needs convex.config.ts,
// which the offline code generator cannot see (ARCHITECTURE §1), so we read process.env here.
/* eslint-disable @convex-dev/no-process-env */

function optional(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value.trim() === "" ? undefined : value;
}

export const env = {
  siteUrl: () => optional("SITE_URL") ?? "http://localhost:5173",
  convexSiteUrl: () => optional("CONVEX_SITE_URL"),
  gatewayBaseUrl: () => optional("GATEWAY_BASE_URL") ?? "https://openrouter.ai/api/v1",
  gatewayApiKey: () => optional("OPENROUTER_API_KEY"),
  /** Per-request time-out; tests of time-out faults shorten it. */
  gatewayTimeoutMs: () => Number(optional("GATEWAY_TIMEOUT_MS") ?? "30000"),
  /** Scales the gateway client's back-off waits; the offline stack's tests set 0. */
  gatewayBackoffScale: () => Number(optional("GATEWAY_BACKOFF_SCALE") ?? "1"),
  stripeSecretKey: () => optional("STRIPE_SECRET_KEY"),
  stripeWebhookSecret: () => optional("STRIPE_WEBHOOK_SECRET"),
  stripeApiHost: () => optional("STRIPE_API_HOST"),
  stripeApiPort: () => optional("STRIPE_API_PORT"),
  stripeApiProtocol: () => optional("STRIPE_API_PROTOCOL"),
  resendApiKey: () => optional("RESEND_API_KEY"),
  resendBaseUrl: () => optional("RESEND_BASE_URL") ?? "https://api.resend.com",
  authEmailFrom: () => optional("AUTH_EMAIL_FROM") ?? "ModelJury <onboarding@resend.dev>",
  adminEmails: () =>
    new Set(
      (optional("ADMIN_EMAILS") ?? "")
        .split(",")
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    ),
  apiKeyEncryptionSecret: () => optional("API_KEY_ENCRYPTION_SECRET"),
};

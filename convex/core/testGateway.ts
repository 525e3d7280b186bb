// The gateway configuration a test's calls use: the deployment's key, or its owner's own key
// (apiKeys.ts stores it encrypted; keyOfTest reads it for the worker).
import { internal } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import type { ActionCtx } from "../_generated/server";
import { decryptApiKey, type EncryptedKey } from "./apiKeyCrypto";
import { gatewayConfig, type GatewayConfig } from "./gateway";

export const UNREADABLE_KEY_MESSAGE =
  "Your saved API key can no longer be read on this deployment. Remove it and save it again.";

/**
 * The gateway a worker of this test calls: the deployment's, or the owner's own key. When the
 * own key is gone or unreadable, the reason is returned so the calls fail with it instead of
 * silently running on (and being paid by) the deployment's key.
 */
export async function gatewayConfigForTest(
  ctx: ActionCtx,
  testId: Id<"tests">,
): Promise<{ config: GatewayConfig } | { error: string }> {
  const own: { usesOwnKey: boolean; userId: Id<"users"> | null; key: EncryptedKey | null } = await ctx.runQuery(
    internal.apiKeys.keyOfTest,
    { testId },
  );
  if (!own.usesOwnKey) return { config: gatewayConfig() };
  if (!own.key || !own.userId) return { error: "This test runs on your own API key, which has been removed." };
  try {
    return { config: gatewayConfig(await decryptApiKey(own.key, own.userId)) };
  } catch {
    return { error: UNREADABLE_KEY_MESSAGE };
  }
}

// Users' own gateway keys at rest: AES-GCM (WebCrypto) under a key derived from the
// deployment's API_KEY_ENCRYPTION_SECRET. The owner's id is bound in as associated data, so a
// ciphertext copied onto another user's row does not decrypt. Runs in actions (true randomness
// for the IV); plaintext never leaves the action that needs it.
import { env } from "../env";

export type EncryptedKey = { ciphertext: string; iv: string };

const KEY_DERIVATION_LABEL = "modeljury:api-keys:v1:";
const IV_BYTES = 12;

export function isKeyStorageConfigured(): boolean {
  return env.apiKeyEncryptionSecret() !== undefined;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

const encoder = new TextEncoder();

// A SHA-256 of a high-entropy deployment secret is a sound AES key; HKDF is not available in
// every runtime this code runs in.
async function encryptionKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.digest("SHA-256", encoder.encode(KEY_DERIVATION_LABEL + secret));
  return await crypto.subtle.importKey("raw", material, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
}

function requireSecret(): string {
  const secret = env.apiKeyEncryptionSecret();
  if (!secret) throw new Error("API_KEY_ENCRYPTION_SECRET is not set.");
  return secret;
}

export async function encryptApiKey(plaintext: string, ownerId: string): Promise<EncryptedKey> {
  const key = await encryptionKey(requireSecret());
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(ownerId) },
    key,
    encoder.encode(plaintext),
  );
  return { ciphertext: toBase64(new Uint8Array(sealed)), iv: toBase64(iv) };
}

/** Throws when the secret changed or the row was tampered with. */
export async function decryptApiKey(encrypted: EncryptedKey, ownerId: string): Promise<string> {
  const key = await encryptionKey(requireSecret());
  const opened = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64(encrypted.iv), additionalData: encoder.encode(ownerId) },
    key,
    fromBase64(encrypted.ciphertext),
  );
  return new TextDecoder().decode(opened);
}

/** '••••••••abcd': only the last 4 characters are ever shown. */
export function maskApiKey(last4: string): string {
  return `••••••••${last4}`;
}

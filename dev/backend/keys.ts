import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { exportJWK, exportPKCS8, generateKeyPair } from "jose";

/** The two environment variables @convex-dev/auth signs and publishes tokens with. */
export type JwtKeys = {
  /** PKCS8 PEM with newlines replaced by spaces, as `npx @convex-dev/auth` writes it. */
  JWT_PRIVATE_KEY: string;
  /** `{"keys":[...]}` with the public key, served at /.well-known/jwks.json. */
  JWKS: string;
};

export async function generateJwtKeys(): Promise<JwtKeys> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", {
    extractable: true,
  });
  const pem = await exportPKCS8(privateKey);
  const jwk = await exportJWK(publicKey);
  return {
    JWT_PRIVATE_KEY: pem.trimEnd().replace(/\n/g, " "),
    JWKS: JSON.stringify({ keys: [{ use: "sig", ...jwk }] }),
  };
}

function isJwtKeys(value: unknown): value is JwtKeys {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as JwtKeys).JWT_PRIVATE_KEY === "string" &&
    typeof (value as JwtKeys).JWKS === "string"
  );
}

/**
 * Reads the keys from `file`, generating and saving them on first use so that
 * tokens stay valid across restarts of the dev stack.
 */
export async function loadOrCreateJwtKeys(file: string): Promise<JwtKeys> {
  try {
    const stored: unknown = JSON.parse(await readFile(file, "utf8"));
    if (isJwtKeys(stored)) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      console.warn(`[backend] ignoring unreadable ${file}: ${String(error)}`);
    }
  }
  const keys = await generateJwtKeys();
  await mkdir(dirname(file), { recursive: true });
  // Write then rename, so parallel first starts never read a half-written file.
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(keys, null, 2) + "\n", {
    mode: 0o600,
  });
  await rename(temporary, file);
  return keys;
}

/**
 * A random secret kept in a JSON file of secrets (mode 600) under `name`, created on first
 * use; `fresh` replaces it.
 */
export async function loadOrCreateSecret(file: string, name: string, fresh = false): Promise<string> {
  let secrets: Record<string, unknown> = {};
  try {
    secrets = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      console.warn(`[backend] ignoring unreadable ${file}: ${String(error)}`);
    }
  }
  const known = secrets[name];
  if (!fresh && typeof known === "string" && known !== "") return known;
  const secret = randomBytes(32).toString("base64");
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify({ ...secrets, [name]: secret }, null, 2) + "\n", { mode: 0o600 });
  await rename(temporary, file);
  return secret;
}

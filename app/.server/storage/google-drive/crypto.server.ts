import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Encryption at rest for the Google Drive credentials kept in the database: AES-256-GCM with a key derived from
 * the app secret (AUTH_SECRET, or the generated one) by HKDF-SHA256. Each value gets a fresh 96-bit nonce; `purpose`
 * is bound as associated data, so a value cannot be moved to another setting. A different secret, or a value
 * changed by one bit, fails to decrypt (the GCM tag does not match).
 *
 * Format: `v1.<nonce>.<ciphertext>.<tag>`, each part base64url.
 */
const VERSION = "v1";
const HKDF_SALT = "esporte-em-foco/google-drive";

function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, HKDF_SALT, `aes-256-gcm:${purpose}`, 32));
}

export function encryptSecret(secret: string, purpose: string, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(secret, purpose), nonce);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, nonce, body, cipher.getAuthTag()].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

/** The plaintext, or throws when the value was not encrypted with this secret and purpose (or was altered). */
export function decryptSecret(secret: string, purpose: string, value: string): string {
  const [version, nonce, body, tag, ...rest] = value.split(".");
  if (version !== VERSION || !nonce || body === undefined || !tag || rest.length) throw new Error("Credencial cifrada em formato desconhecido");
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(secret, purpose), Buffer.from(nonce, "base64url"));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

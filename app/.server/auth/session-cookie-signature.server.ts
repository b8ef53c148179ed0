import { createHmac, timingSafeEqual } from "node:crypto";

/** Better Auth's session cookie (prefix "eef"; "__Secure-" in front on https) and its value, in a Cookie header. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?eef\.session_token=([^;]*)/g;

/**
 * Whether a Cookie header carries a session cookie that this site signed: Better Auth signs the token with
 * HMAC-SHA256 under the auth secret (`<token>.<base64 signature>`, URL-encoded). Checked in memory, without a database:
 * a made-up or tampered cookie is no session at all (the page cache answers it like any reader), while a signed one
 * still goes to Better Auth, which checks that the session exists and has not expired.
 */
export function createSessionCookieCheck(secret: string): (cookieHeader: string | null | undefined) => boolean {
  return (cookieHeader) => {
    if (!cookieHeader?.includes("session_token=")) return false;
    for (const [, raw] of cookieHeader.matchAll(SESSION_COOKIE)) {
      let value: string;
      try {
        value = decodeURIComponent(raw!.trim());
      } catch {
        continue;
      }
      const dot = value.lastIndexOf(".");
      const signature = value.slice(dot + 1);
      // What Better Auth itself accepts: a non-empty token and a 44-character base64 SHA-256 signature.
      if (dot < 1 || signature.length !== 44 || !signature.endsWith("=")) continue;
      const expected = createHmac("sha256", secret).update(value.slice(0, dot)).digest();
      const given = Buffer.from(signature, "base64");
      if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
    }
    return false;
  };
}

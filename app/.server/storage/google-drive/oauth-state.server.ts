import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The OAuth `state` of "Conectar ao Google Drive", bound to the admin's session (CSRF protection for the callback):
 * the state is a random nonce; an HttpOnly cookie, signed with the app secret, carries that nonce, the admin's user
 * id, a hash of the session cookie, where to go back to and an expiry. The callback accepts the code only when the
 * `state` it receives is the cookie's nonce and the cookie was made for this very session.
 */
export const DRIVE_STATE_COOKIE = "eef.drive_oauth";
/** The cookie travels only to these routes (/admin/drive/connect, callback and disconnect: their common prefix). */
const COOKIE_PATH = "/admin/drive";
/** The admin has this long to finish Google's consent. */
export const DRIVE_STATE_TTL_MS = 10 * 60_000;

interface StatePayload {
  /** The nonce sent to Google as `state`. */
  n: string;
  /** Admin user id. */
  u: string;
  /** SHA-256 of the session cookie (base64url). */
  s: string;
  /** Where to go back to (a same-site path). */
  r: string;
  /** Expiry, ms since the epoch. */
  e: number;
}

export interface StateContext {
  secret: string;
  userId: string;
  request: Request;
  now?: number;
}

/** Starts a consent: the state for Google's URL and the Set-Cookie header that remembers it. */
export function createDriveOAuthState(context: StateContext & { returnTo: string; secure: boolean }): { state: string; setCookie: string } {
  const now = context.now ?? Date.now();
  const payload: StatePayload = {
    n: randomBytes(24).toString("base64url"),
    u: context.userId,
    s: sessionHash(context.request),
    r: context.returnTo,
    e: now + DRIVE_STATE_TTL_MS,
  };
  const encoded = Buffer.from(JSON.stringify(payload)).toString("base64url");
  const value = `${encoded}.${sign(context.secret, encoded)}`;
  return {
    state: payload.n,
    setCookie: cookieHeader(value, Math.floor(DRIVE_STATE_TTL_MS / 1000), context.secure),
  };
}

/**
 * The consent this callback belongs to: `{ returnTo }` when `state` matches the signed cookie made for this admin's
 * session and not yet expired; otherwise `{ returnTo, valid: false }` with the cookie's return path when readable.
 */
export function verifyDriveOAuthState(context: StateContext & { state: string | null }): { valid: boolean; returnTo: string | null } {
  const raw = readCookie(context.request, DRIVE_STATE_COOKIE);
  if (!raw) return { valid: false, returnTo: null };
  const [encoded, signature, ...rest] = raw.split(".");
  if (!encoded || !signature || rest.length || !safeEqual(signature, sign(context.secret, encoded))) return { valid: false, returnTo: null };
  let payload: StatePayload;
  try {
    payload = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")) as StatePayload;
  } catch {
    return { valid: false, returnTo: null };
  }
  const returnTo = typeof payload.r === "string" ? payload.r : null;
  const valid =
    typeof context.state === "string" &&
    safeEqual(context.state, payload.n) &&
    payload.u === context.userId &&
    payload.s === sessionHash(context.request) &&
    (context.now ?? Date.now()) < payload.e;
  return { valid, returnTo };
}

/** Set-Cookie that removes the state cookie (a state is used once). */
export function clearDriveOAuthStateCookie(secure: boolean): string {
  return cookieHeader("", 0, secure);
}

function cookieHeader(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${DRIVE_STATE_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

function sign(secret: string, data: string): string {
  return createHmac("sha256", secret).update(`drive-oauth-state:${data}`).digest("base64url");
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Hash of the session cookie (Better Auth's `eef.session_token`, `__Secure-` prefixed behind HTTPS). */
function sessionHash(request: Request): string {
  const cookies = parseCookies(request);
  const session = cookies.get("__Secure-eef.session_token") ?? cookies.get("eef.session_token") ?? "";
  return createHash("sha256").update(session).digest("base64url");
}

function readCookie(request: Request, name: string): string | null {
  return parseCookies(request).get(name) ?? null;
}

function parseCookies(request: Request): Map<string, string> {
  const result = new Map<string, string>();
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index < 0) continue;
    const name = part.slice(0, index).trim();
    if (!name || result.has(name)) continue;
    let value = part.slice(index + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // keep it raw
    }
    result.set(name, value);
  }
  return result;
}

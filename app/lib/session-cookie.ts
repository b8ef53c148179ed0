/**
 * Better Auth's session cookie in a Cookie header (prefix "eef"; "__Secure-" in front on https). A request without
 * it has no session: no lookup is needed, and the page cache may answer it.
 */
export const SESSION_COOKIE_PATTERN = /(?:^|;\s*)(?:__Secure-)?eef\.session_token=/;

/** Whether a Cookie header carries the session cookie. */
export function hasSessionCookie(cookieHeader: string | null | undefined): boolean {
  return SESSION_COOKIE_PATTERN.test(cookieHeader ?? "");
}

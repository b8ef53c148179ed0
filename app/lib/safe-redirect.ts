import { href } from "react-router";

/**
 * The one check for every redirect that takes a value from the request (`redirectTo` of the sign-in page, `returnTo`
 * of the Drive connection, the path Google sends back to): a same-site relative path, or `fallback`.
 *
 * Refused: anything that is not a path (absolute URLs, `javascript:`, bare names), control characters and
 * backslashes (raw or percent-encoded), and whatever a browser would read as another host once dot segments are
 * resolved (`/.//evil`, `/..//evil`, `/%2e%2e//evil`) or once decoded (`/%2F%2Fevil`). The check runs on the path
 * as the browser will resolve it, after normalising, and the result is checked once more the same way.
 */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined, fallback = href("/news-list")): string {
  if (typeof value !== "string") return fallback;
  const candidate = value.trim();
  if (!isSameSitePath(candidate)) return fallback;
  let normalised: string;
  try {
    const url = new URL(candidate, SITE);
    if (url.origin !== SITE) return fallback;
    normalised = url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
  if (!isSameSitePath(normalised) || !isSameSitePath(decodedPath(normalised))) return fallback;
  // Routes match case-insensitively: /ADMIN/LOGIN is the login page too (going back to it would loop).
  if (normalised.toLowerCase().startsWith(LOGIN_PATH)) return fallback;
  return normalised;
}

const SITE = "http://site.invalid";
/** The sign-in page's path in lower case, for the case-insensitive comparison above. */
const LOGIN_PATH = href("/admin/login").toLowerCase();

/** A path that starts with one slash, never `//` or `/\`, with no backslash or control character anywhere. */
function isSameSitePath(path: string): boolean {
  return path.startsWith("/") && !path.startsWith("//") && !/[\\\u0000-\u001f\u007f]/.test(path);
}

/** The path part percent-decoded (what a lenient client might act on); a malformed escape gives "" (refused). */
function decodedPath(path: string): string {
  const end = path.search(/[?#]/);
  try {
    return decodeURIComponent(end < 0 ? path : path.slice(0, end));
  } catch {
    return "";
  }
}

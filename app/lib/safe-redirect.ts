/**
 * A same-site relative path to go back to after signing in, or `fallback`. Anything that could leave the site
 * (absolute URLs, protocol-relative `//host`, backslash tricks, control characters) is refused.
 */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined, fallback = "/news-list"): string {
  if (typeof value !== "string") return fallback;
  const path = value.trim();
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\") || /[\u0000-\u001f\\]/.test(path)) return fallback;
  try {
    const url = new URL(path, "http://site.invalid");
    if (url.origin !== "http://site.invalid") return fallback;
    // Routes match case-insensitively: /ADMIN/LOGIN is the login page too.
    if (url.pathname.toLowerCase().startsWith("/admin/login")) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

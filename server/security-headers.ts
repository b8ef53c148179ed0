import type { NextFunction, Request, Response } from "express";

/**
 * Headers every answer carries: no MIME sniffing, no full URLs leaked to other sites, no powerful browser features
 * the site does not use, and never framed by another site (the sponsor manager used to load inside a sibling site's
 * iframe with the admin's session). HSTS when the public address is https.
 *
 * Not yet here: a script-src policy (React Router's inline scripts need per-response nonces, and pages from the
 * cache hashes); see the closing note of the hardening issue.
 */
export function securityHeaders(siteUrl: string): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'; object-src 'none'; base-uri 'self'",
  };
  if (new URL(siteUrl).protocol === "https:") headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/** Express middleware setting `securityHeaders` on every response (routes may still override Referrer-Policy). */
export function securityHeadersMiddleware(siteUrl: string) {
  const headers = Object.entries(securityHeaders(siteUrl));
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

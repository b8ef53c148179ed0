import { createHash, randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import { ADSENSE_POLICY, consentOf } from "#app/lib/ads.ts";
import { sharedCacheMayStore } from "#app/lib/cache-headers.ts";
import { EMBED_FRAME_ORIGINS } from "#app/lib/embeds.ts";

/** What the Content-Security-Policy depends on besides the site itself (read from the configuration once). */
export interface SecurityPolicyOptions {
  /** SITE_URL: HSTS is sent when it is https. */
  siteUrl: string;
  /** Origins media may be loaded from besides the site (the bucket's S3_PUBLIC_URL, EXTERNAL_MEDIA_ORIGINS). */
  mediaOrigins?: string[];
  /**
   * Origins a form may lead to besides the site: Google's consent page, when sign-in with Google or the Drive store
   * is configured (the sign-in and "Conectar ao Google Drive" forms answer with a redirect there, and browsers apply
   * form-action to the redirects of a form submission).
   */
  formOrigins?: string[];
  /** `npm run dev`: Vite's hot-reload websocket (its own port) must connect. */
  development?: boolean;
  /**
   * ADSENSE_CLIENT is set: the answers to a reader who accepted the ad partner (the consent cookie) allow its
   * origins (`ADSENSE_POLICY`); everyone else's answers never do.
   */
  adPartner?: boolean;
}

/**
 * The options the app's configuration implies (see `app/.server/config/env.server.ts`), with what its media store
 * asks for (`MediaStore.publicOrigins`: a bucket's public origin, a consent page its connect form leads to).
 */
export function policyOptionsFromConfig(
  config: {
    env: string;
    site: { url: string; ads?: unknown };
    media: { externalOrigins?: string[] };
    auth: { google: { discoveryUrl: string } | null };
  },
  store: Pick<MediaStore, "publicOrigins">,
): SecurityPolicyOptions {
  const storeOrigins = store.publicOrigins();
  const formOrigins = new Set<string>();
  // Google publishes its authorization endpoint on the same origin as its discovery document (accounts.google.com);
  // tests point both at a local OpenID provider.
  if (config.auth.google) formOrigins.add(new URL(config.auth.google.discoveryUrl).origin);
  for (const origin of storeOrigins.forms) formOrigins.add(origin);
  const siteOrigin = new URL(config.site.url).origin;
  // Imported media left on Google Drive (EXTERNAL_MEDIA_ORIGINS), after the store's.
  const mediaOrigins = new Set([...storeOrigins.media, ...(config.media.externalOrigins ?? [])]);
  return {
    siteUrl: config.site.url,
    mediaOrigins: [...mediaOrigins].filter((origin) => origin !== siteOrigin),
    formOrigins: [...formOrigins].filter((origin) => origin !== siteOrigin),
    development: config.env === "development",
    adPartner: Boolean(config.site.ads),
  };
}

/** Whether this request's answer may allow the ad partner: configured, and the reader's cookie says accepted. */
export function partnerConsented(options: SecurityPolicyOptions, cookieHeader: string | null | undefined): boolean {
  return Boolean(options.adPartner) && consentOf(cookieHeader) === "accepted";
}

/**
 * The Content-Security-Policy of an answer. `scripts` are the extra `script-src` sources of this answer: the
 * response's `'nonce-…'`, or the `'sha256-…'` hashes of a cached page's inline scripts, or nothing (assets, files).
 *
 * - Scripts: only the site's own files plus the inline scripts React Router writes (context, module loader,
 *   streaming), each carrying this response's nonce or listed by hash. No 'unsafe-inline', no 'unsafe-eval', no
 *   'strict-dynamic' (the module preloads and the lazily loaded chunks all come from 'self').
 * - Styles: 'self' plus 'unsafe-inline'. Radix's scroll lock (lightbox, admin drawer, dialogs) inserts a `<style>`
 *   element at run time and React writes `style` attributes, which a nonce cannot cover; a style can neither run
 *   code nor send data anywhere the other directives (img-src, font-src, connect-src) do not allow.
 * - Images and video: 'self', `data:` (the two-factor QR code is an SVG data URL), `blob:` (the preview of a file
 *   being uploaded), the bucket's public origin when media is served from there, and EXTERNAL_MEDIA_ORIGINS (media
 *   imported from the original product and left on Google Drive; none by default).
 * - Connections: 'self' only (the /events stream, the upload with progress, the API).
 * - Frames: only the players of the posts an article embeds (YouTube's youtube-nocookie.com, Instagram, X, TikTok;
 *   `EMBED_FRAME_ORIGINS` in app/lib/embeds.ts), and only once the reader clicks the embed: the page itself loads
 *   nothing from them. No other frame, not even one of the site's own pages (none uses one).
 * - The ad partner (ADSENSE_CLIENT): its script, frames, images and connections only in the answers to a reader
 *   whose consent cookie says "accepted" (`partner`); no answer to anyone else names it.
 * - Never framed ('none': nothing in the site frames itself), no plugins, no `<base>` elsewhere, forms only to the
 *   site (and Google's consent page when configured).
 */
export function contentSecurityPolicy(options: SecurityPolicyOptions, scripts = "", partner = false): string {
  const media = ["'self'", "data:", "blob:", ...(options.mediaOrigins ?? [])].join(" ");
  // The ad partner's sources, only on the answers to a reader who accepted it (see `partnerConsented`).
  const ads = (kind: keyof typeof ADSENSE_POLICY) => (partner && options.adPartner ? ` ${ADSENSE_POLICY[kind].join(" ")}` : "");
  const directives = [
    "default-src 'self'",
    `script-src 'self'${scripts ? ` ${scripts}` : ""}${ads("script")}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${media}${ads("img")}`,
    `media-src ${media}`,
    "font-src 'self'",
    `connect-src 'self'${options.development ? " ws: wss:" : ""}${ads("connect")}`,
    `frame-src ${EMBED_FRAME_ORIGINS.join(" ")}${ads("frame")}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${["'self'", ...(options.formOrigins ?? [])].join(" ")}`,
    "frame-ancestors 'none'",
  ];
  return directives.join("; ");
}

/** A fresh nonce for one response: 128 random bits, base64. */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The `'sha256-…'` sources of every inline script of an HTML page (`<script>` without `src`), as a browser hashes
 * them: the exact text between the tags, with line breaks normalised to LF (the HTML parser does that first).
 * React escapes `</script` inside the scripts it writes, so the first closing tag ends each one.
 */
/** A `<script>` whose type is data (JSON-LD): never run, so the policy does not apply to it and needs no hash. */
export function isDataBlock(attributes: string): boolean {
  return /\btype\s*=\s*["']?application\/(ld\+)?json\b/i.test(attributes);
}

export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc\s*=/i.test(match[1] ?? "") || isDataBlock(match[1] ?? "")) continue;
    const text = (match[2] ?? "").replace(/\r\n?/g, "\n");
    hashes.add(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/**
 * Headers every answer carries: no MIME sniffing, no full URLs leaked to other sites, no powerful browser features
 * the site does not use, never framed by another site (the sponsor manager used to load inside a sibling site's
 * iframe with the admin's session), the Content-Security-Policy without any inline script allowed (pages rendered
 * by the app replace it with one carrying their nonce; cached pages with their scripts' hashes). HSTS on https.
 */
export function securityHeaders(options: SecurityPolicyOptions): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": contentSecurityPolicy(options),
  };
  if (new URL(options.siteUrl).protocol === "https:") headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/** Express middleware setting `securityHeaders` on every response (routes may still override Referrer-Policy). */
export function securityHeadersMiddleware(options: SecurityPolicyOptions) {
  const headers = Object.entries(securityHeaders(options));
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/**
 * For everything the app answers: a new nonce per response, in `res.locals.cspNonce` (the document render puts it
 * on every inline script) and in the response's Content-Security-Policy. When the headers go out, the policy is
 * settled (`settlePolicy`): one a rendered page set for itself wins, and an answer a shared cache may store never
 * keeps the nonce.
 */
export function cspNonceMiddleware(options: SecurityPolicyOptions) {
  return (req: Request, res: Response, next: NextFunction) => {
    const nonce = createNonce();
    const partner = partnerConsented(options, req.headers.cookie);
    res.locals.cspNonce = nonce;
    res.setHeader("Content-Security-Policy", contentSecurityPolicy(options, `'nonce-${nonce}'`, partner));
    // With an ad partner the policy depends on the consent cookie: a shared cache in front must keep them apart.
    if (options.adPartner) res.vary("Cookie");
    beforeHeaders(res, () => settlePolicy(res, contentSecurityPolicy(options, "", partner)));
    next();
  };
}

/**
 * The Content-Security-Policy an answer leaves with. A document rendered for a shared cache set its own (its
 * scripts' hashes, entry.server.tsx), which React Router's adapter appends after the nonce one: the answer's own is
 * kept. And an answer a shared cache may store (Cache-Control neither `private` nor `no-store`: a `.data` reload,
 * a feed, a redirect, a HEAD) whose policy still names this response's nonce gets `withoutNonce` instead: a stored
 * copy would hand that nonce to every reader (decision record 004). A document that kept a nonce there would have
 * its scripts blocked, never run under someone else's nonce.
 */
export function settlePolicy(res: Pick<Response, "getHeader" | "setHeader">, withoutNonce: string): void {
  const header = res.getHeader("Content-Security-Policy");
  let policy = Array.isArray(header) ? header.at(-1) : header;
  if (typeof policy !== "string") return;
  if (policy.includes("'nonce-") && sharedCacheMayStore(res.getHeader("Cache-Control"))) policy = withoutNonce;
  if (policy !== header) res.setHeader("Content-Security-Policy", policy);
}

/** Runs `callback` once, just before the response's headers are written (whatever writes them first). */
function beforeHeaders(res: Response, callback: () => void): void {
  const writeHead = res.writeHead;
  let called = false;
  res.writeHead = function (this: Response, ...args: Parameters<Response["writeHead"]>) {
    if (!called) {
      called = true;
      callback();
    }
    return writeHead.apply(this, args);
  } as Response["writeHead"];
}

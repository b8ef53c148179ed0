import { href } from "react-router";

/**
 * The advertising partner (Google AdSense) and the reader's consent to it (LGPD). Nothing of the partner loads before
 * the reader accepts: the pages (shared by every reader through the page cache) carry only placeholders, the units
 * are inserted in the browser after consent, and the Content-Security-Policy allows the partner only on answers to a
 * request whose cookie says "accepted" (server/security-headers.ts). docs/decisions/011-ad-consent.md.
 */

/** The ad units the configuration may turn on: the two slots of the home page. */
export interface AdsConfig {
  /** ADSENSE_CLIENT, "ca-pub-…". */
  client: string;
  /** ADSENSE_SLOT_TOP / ADSENSE_SLOT_BOTTOM: a slot without an id stays a placeholder. */
  slots: { top: string | null; bottom: string | null };
}

export type AdSlotName = keyof AdsConfig["slots"];

/** The partner's loader script (the one request consent allows first). */
export const ADSENSE_SCRIPT_ORIGIN = "https://pagead2.googlesyndication.com";

export function adsenseScriptUrl(client: string): string {
  return `${ADSENSE_SCRIPT_ORIGIN}/pagead/js/adsbygoogle.js?client=${encodeURIComponent(client)}`;
}

/**
 * What the partner's script loads once it runs (Google's list for AdSense under a Content-Security-Policy): added to
 * the policy of a consenting reader's answers only.
 */
export const ADSENSE_POLICY = {
  script: [
    ADSENSE_SCRIPT_ORIGIN,
    "https://*.googlesyndication.com",
    "https://*.doubleclick.net",
    "https://*.google.com",
    "https://*.gstatic.com",
    "https://*.adtrafficquality.google",
  ],
  frame: ["https://*.googlesyndication.com", "https://*.doubleclick.net", "https://*.google.com", "https://*.adtrafficquality.google"],
  img: [
    "https://*.googlesyndication.com",
    "https://*.doubleclick.net",
    "https://*.google.com",
    "https://*.gstatic.com",
    "https://*.adtrafficquality.google",
  ],
  connect: ["https://*.googlesyndication.com", "https://*.doubleclick.net", "https://*.google.com", "https://*.adtrafficquality.google"],
} as const;

/** The cookie keeping the reader's choice (readable by the page's script: the banner and the units depend on it). */
export const CONSENT_COOKIE = "eef.consent";
export type ConsentChoice = "accepted" | "refused";

/** The choice a Cookie header carries, or null when the reader has not chosen (or the value is not one of ours). */
export function consentOf(cookieHeader: string | null | undefined): ConsentChoice | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === CONSENT_COOKIE && (value === "accepted" || value === "refused")) return value;
  }
  return null;
}

/** Where the privacy page's preferences are (the banner's "Preferências" and the footer's link). */
export const CONSENT_PREFERENCES_PATH = `${href("/userLicence")}#preferencias`;
/** Where the choice is sent (a form: works without JavaScript, and the answer is a new page with the new policy). */
export const CONSENT_ACTION_PATH = href("/consentimento");

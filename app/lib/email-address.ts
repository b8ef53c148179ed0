/**
 * The one rule for an e-mail address the site takes (sign-in, registration, password reset, the team's invitation,
 * `npm run admin -- create --email`, the Firestore import, CONTACT_EMAIL): a single plain address, `local@domain`.
 *
 * - Local part: dot-separated words of letters, digits and `_ ' + -` (no leading, trailing or doubled dot), not
 *   ending in `'`; at most 64 characters.
 * - Domain: at least two labels separated by dots, each of letters, digits and hyphens (not starting or ending with
 *   a hyphen); the last one letters only, two or more. No address literals (`[127.0.0.1]`).
 * - At most 254 characters in all.
 *
 * So never a display name (`Nome <a@b.com>`), a group (`equipe: a@b.com;`), a list (`,` `;`), a quoted local part,
 * a comment, spaces, angle brackets or colons: what a mailer could read as more than one recipient, or as another
 * one. It is a subset of what Zod's `z.email()` (and so Better Auth's sign-up and sign-in) accepts: an address taken
 * here can always sign in.
 */
const PLAIN_ADDRESS = /^(?:[a-z0-9_'+-]+\.)*[a-z0-9_'+-]*[a-z0-9_+-]@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/;
const MAX_LENGTH = 254;
const MAX_LOCAL_LENGTH = 64;

/** The address as stored (trimmed, lower-cased), or null when `raw` is not one plain address. */
export function plainEmailAddress(raw: string): string | null {
  const address = raw.trim().toLowerCase();
  if (address.length > MAX_LENGTH || !PLAIN_ADDRESS.test(address)) return null;
  return address.indexOf("@") <= MAX_LOCAL_LENGTH ? address : null;
}

/** Whether `raw` (as given: surrounding spaces count) is one plain address. */
export function isPlainEmailAddress(raw: string): boolean {
  return raw === raw.trim() && plainEmailAddress(raw) !== null;
}

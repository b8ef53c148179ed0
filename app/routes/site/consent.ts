import { href, redirect } from "react-router";
import type { Route } from "./+types/consent";
import { servicesOf } from "#app/.server/context.server.ts";
import { CONSENT_COOKIE, CONSENT_PREFERENCES_PATH, type ConsentChoice } from "#app/lib/ads.ts";
import { CONSENT_MAX_AGE_SECONDS } from "#app/lib/limits.ts";
import { PRIVATE_ROUTE } from "#app/lib/route-facts.ts";
import { safeRedirectPath } from "#app/lib/safe-redirect.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

const CHOICES: Record<string, ConsentChoice> = { aceitar: "accepted", recusar: "refused" };

/**
 * POST /consentimento (`escolha`: aceitar | recusar; `voltar`: the page the reader was on): keeps the reader's choice
 * about the ad partner in a cookie for 6 months and goes back to that page. A plain form, sent by the browser itself
 * (not the router's fetch): it works without JavaScript, and the page that follows is a new document whose
 * Content-Security-Policy follows the new choice (server/security-headers.ts). The cookie holds only the choice.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response(t.api.methodNotAllowed("POST"), { status: 405, headers: { Allow: "POST" } });
  const form = await request.formData().catch(() => null);
  const choice = CHOICES[String(form?.get("escolha") ?? "")];
  if (!form || !choice) return new Response(t.consent.invalidChoice, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const secure = new URL(servicesOf(context).config.site.url).protocol === "https:" ? "; Secure" : "";
  // Back to a page of this site only (the one check every redirect from the request goes through).
  return redirect(safeRedirectPath(form.get("voltar"), href("/userLicence")), {
    status: 303,
    headers: {
      "Set-Cookie": `${CONSENT_COOKIE}=${choice}; Max-Age=${CONSENT_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`,
      "Cache-Control": NO_STORE,
    },
  });
}

/** A GET (a bookmarked or typed address) shows where the choice is made. */
export function loader() {
  return redirect(CONSENT_PREFERENCES_PATH);
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;

import { href, redirect } from "react-router";
import type { Route } from "./+types/drive-callback";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRole } from "#app/.server/auth/permissions.server.ts";
import { clearDriveOAuthStateCookie } from "#app/.server/storage/google-drive/oauth-state.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { safeRedirectPath } from "#app/lib/safe-redirect.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

/**
 * Where Google sends the admin back after consent (`?code=…&state=…`, or `?error=access_denied&state=…`). The code
 * is exchanged only for the admin whose session started the consent (signed state cookie); the refresh token is
 * then kept, encrypted, for the whole newsroom. Success or not, the admin goes back to the page the consent started
 * from, which then shows 'Google Drive conectado' or 'Falha ao fazer login no Google Drive. Tente novamente.'.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireRole(request, context, handle);
  const { drive, config, log } = servicesOf(context);
  if (!drive) return new Response(t.storage.notThisStore, { status: 404 });
  const url = new URL(request.url);
  const check = drive.verifyConsent({
    userId: viewer.userId,
    request,
    state: url.searchParams.get("state"),
  });
  const returnTo = safeRedirectPath(check.returnTo, href("/SponsorManager"));
  const headers = { "Set-Cookie": clearDriveOAuthStateCookie(config.site.url.startsWith("https:")), "Cache-Control": NO_STORE };
  const code = url.searchParams.get("code");
  const refused = url.searchParams.get("error");
  try {
    if (!check.valid) throw new Error("OAuth state missing, expired or from another session");
    if (refused || !code) throw new Error(`consent not given (${refused ?? "no code"})`);
    await drive.completeAuthorization(code, viewer.userId);
  } catch (error) {
    log.warn({ err: error, userId: viewer.userId }, "Google Drive connection failed");
    await drive.recordFailure().catch((mark: unknown) => log.error({ err: mark }, "could not record the Google Drive failure"));
  }
  return redirect(returnTo, { headers });
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** The media store connection: admins only. */
export const handle = routeFacts({ cache: false, uploads: false, role: "admin" });

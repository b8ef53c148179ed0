import { redirect } from "react-router";
import type { Route } from "./+types/drive-callback";
import { getServices } from "../../.server/app.server.ts";
import { requireAdmin } from "../../.server/auth/guards.server.ts";
import { resolveAuthSecret } from "../../.server/auth/secret.server.ts";
import { clearDriveOAuthStateCookie, verifyDriveOAuthState } from "../../.server/storage/drive-oauth-state.server.ts";
import { asGoogleDriveStore } from "../../.server/storage/google-drive-store.server.ts";
import { safeRedirectPath } from "../../lib/safe-redirect.ts";

/**
 * Where Google sends the admin back after consent (`?code=…&state=…`, or `?error=access_denied&state=…`). The code
 * is exchanged only for the admin whose session started the consent (signed state cookie); the refresh token is
 * then kept, encrypted, for the whole newsroom. Success or not, the admin goes back to the page the consent started
 * from, which then shows 'Google Drive conectado' or 'Falha ao fazer login no Google Drive. Tente novamente.'.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request);
  const { store, config, log } = getServices();
  const drive = asGoogleDriveStore(store);
  if (!drive) return new Response("O Google Drive não é o armazenamento deste site (MEDIA_STORE).", { status: 404 });
  const url = new URL(request.url);
  const check = verifyDriveOAuthState({
    secret: resolveAuthSecret(config),
    userId: viewer.userId,
    request,
    state: url.searchParams.get("state"),
  });
  const returnTo = safeRedirectPath(check.returnTo, "/SponsorManager");
  const headers = { "Set-Cookie": clearDriveOAuthStateCookie(config.site.url.startsWith("https:")), "Cache-Control": "no-store" };
  const code = url.searchParams.get("code");
  const refused = url.searchParams.get("error");
  try {
    if (!check.valid) throw new Error("state do OAuth ausente, expirado ou de outra sessão");
    if (refused || !code) throw new Error(`consentimento não concedido (${refused ?? "sem código"})`);
    await drive.connection.completeAuthorization(code, viewer.userId);
  } catch (error) {
    log.warn({ err: error, userId: viewer.userId }, "Google Drive connection failed");
    await drive.connection.recordFailure().catch((mark: unknown) => log.error({ err: mark }, "could not record the Google Drive failure"));
  }
  return redirect(returnTo, { headers });
}

import { href, redirect } from "react-router";
import type { Route } from "./+types/drive-connect";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRole } from "#app/.server/auth/permissions.server.ts";
import { safeRedirectPath } from "#app/lib/safe-redirect.ts";
import { t } from "#app/i18n/newsroom.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

/**
 * "Conectar ao Google Drive" (POST, admins only): remembers the consent in a signed cookie bound to this session and
 * sends the admin to Google's consent page (scope drive.file, offline access). Google comes back to
 * /admin/drive/callback.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireRole(request, context, handle);
  const { drive, config } = servicesOf(context);
  if (!drive) return new Response(t.storage.notThisStore, { status: 404 });
  const form = await request.formData();
  const { url, setCookie } = drive.beginConsent({
    userId: viewer.userId,
    request,
    returnTo: safeRedirectPath(form.get("returnTo"), href("/SponsorManager")),
    secure: config.site.url.startsWith("https:"),
  });
  return redirect(url, { headers: { "Set-Cookie": setCookie, "Cache-Control": NO_STORE } });
}

/** Connecting changes state: only by POST. A GET (a link, a reload) goes to the sponsor manager. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireRole(request, context, handle);
  return redirect(href("/SponsorManager"), { headers: { "Cache-Control": NO_STORE } });
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** The media store connection: admins only. */
export const handle = routeFacts({ cache: false, uploads: false, role: "admin" });

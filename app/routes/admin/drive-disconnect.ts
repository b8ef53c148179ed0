import { href, redirect } from "react-router";
import type { Route } from "./+types/drive-disconnect";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRole } from "#app/.server/auth/permissions.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { safeRedirectPath } from "#app/lib/safe-redirect.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

/** "Desconectar" (POST, admins only): revokes the newsroom's Google token and forgets it; uploads stop until reconnected. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireRole(request, context, handle);
  const { drive, log } = servicesOf(context);
  if (!drive) return new Response(t.storage.notThisStore, { status: 404 });
  const form = await request.formData();
  await drive.disconnect();
  log.info({ userId: viewer.userId }, "Google Drive disconnected by an admin");
  return redirect(safeRedirectPath(form.get("returnTo"), href("/SponsorManager")), { headers: { "Cache-Control": NO_STORE } });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireRole(request, context, handle);
  return redirect(href("/SponsorManager"), { headers: { "Cache-Control": NO_STORE } });
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** The media store connection: admins only. */
export const handle = routeFacts({ cache: false, uploads: false, role: "admin" });

import { href, redirect } from "react-router";
import type { Route } from "./+types/news-alert";
import { servicesOf } from "#app/.server/context.server.ts";
import { AppError } from "#app/.server/errors.ts";
import { postOnlyLoader, requireRoleApi, memberActor } from "#app/.server/auth/permissions.server.ts";
import { apiError, toApiError } from "#app/.server/http/api.server.ts";
import { readJsonObject } from "#app/.server/http/submissions.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";
import { ALERT_FORM_ANCHOR, ALERT_FORM_PARAM } from "#app/lib/push-topics.ts";
import { routeFacts } from "#app/lib/route-facts.ts";

/**
 * POST /api/news/:id/alert: the story (no body, or JSON `{}`), or one of its live updates (`{ updateId }`), sent as
 * a Web Push alert to the readers who follow it; 202 `{ alert: { id, recipients } }` at once, the messages going out
 * after. Editors and admins; the story must be published (409 `alert_not_public`); each story and update once (409
 * `alert_already_sent`). The edit page's plain form (urlencoded, with its `confirm` box checked) gets a 303 back to it
 * with `?alerta=` the outcome.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  return postOnlyLoader(request, context, handle);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { pushAlerts, log } = servicesOf(context);
  const form = (request.headers.get("Content-Type") ?? "").startsWith("application/x-www-form-urlencoded");
  const back = (outcome: string) =>
    redirect(`${href("/edit-news/:id", { id: params.id })}?${ALERT_FORM_PARAM}=${encodeURIComponent(outcome)}#${ALERT_FORM_ANCHOR}`, 303);
  try {
    const viewer = await requireRoleApi(request, context, handle);
    const actor = memberActor(viewer);
    if (request.method !== "POST") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST"));
    if (form) {
      // The box to check first: a push to every follower cannot be taken back.
      const fields = await request.formData().catch(() => null);
      if (fields?.get("confirm") !== "on") return back("alert_unconfirmed");
      await pushAlerts.sendStory(params.id, actor);
      return back("sent");
    }
    const hasBody = request.headers.get("Content-Length") !== "0" && request.body !== null;
    const body = hasBody ? await readJsonObject(request) : {};
    const updateId = body.updateId;
    if (updateId !== undefined && (typeof updateId !== "string" || updateId.length > 64)) {
      return apiError(400, "invalid_update_id", t.liveNewsroom.updateNotFound);
    }
    const alert = updateId ? await pushAlerts.sendUpdate(params.id, updateId, actor) : await pushAlerts.sendStory(params.id, actor);
    return Response.json({ alert }, { status: 202, headers: { "Cache-Control": NO_STORE } });
  } catch (error) {
    if (form && error instanceof AppError && error.status === 409) return back(error.code);
    return toApiError(error, request, log);
  }
}

export const handle = routeFacts({ cache: false, uploads: false, role: "editor" });

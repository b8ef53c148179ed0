import { href, redirect } from "react-router";
import type { Route } from "./+types/news-live-form";
import { servicesOf } from "#app/.server/context.server.ts";
import { AppError } from "#app/.server/errors.ts";
import { memberActor, postOnlyLoader, requireMayAlert, requireRoleApi } from "#app/.server/auth/permissions.server.ts";
import { apiError, toApiError } from "#app/.server/http/api.server.ts";
import { LIVE_FORM_ANCHOR, LIVE_FORM_PARAM, parseLiveForm } from "#app/.server/news/live/live-form.server.ts";
import { sendUpdateAlert } from "#app/.server/push/push-alerts.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { routeFacts } from "#app/lib/route-facts.ts";

/**
 * POST /api/news/:id/live: the newsroom's live coverage controls as plain HTML forms (the article's and the edit
 * page's, without JavaScript; with it the panel uses the JSON API). Fields (urlencoded or multipart, no file):
 * `intent` = `post` (`text`, plain text with a blank line between paragraphs; `minute`, "32" or "45+2", and
 * `eventType`, both optional; `keyEvent`, `pinned` checkboxes; `alert`, editors and admins: sent as a Web Push alert too),
 * `live`, `ended`, `off` (with the `confirm` checkbox) or `scoreboard` (`home`, `away`, `homeScore`, `awayScore`,
 * `period`). The checks are the JSON API's: a newsroom session (reporter and up), a reporter only on their own
 * story, the same validation, and the Origin check of every write (server/origin-guard.ts). Done, or refused for
 * what was sent (400, 409), it answers 303 to the page the form is on (`back`: `article`, else the edit page) with
 * `?cobertura=` what happened (`posted`, `live`, `ended`, `off`, `scoreboard`) or the refusal's code, which the page
 * says in words. Who may not do it at all (no session 401, a role too low or a reporter on someone else's story
 * 403, a missing story 404) gets the API's error answer, as every route refuses them.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  return postOnlyLoader(request, context, handle);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { liveCoverage, pushAlerts, log, config } = servicesOf(context);
  // The page the form is on: the article, or (the default) the edit page. Nothing else: never an address sent.
  let page = href("/edit-news/:id", { id: params.id });
  const back = (outcome: string) => redirect(`${page}?${LIVE_FORM_PARAM}=${encodeURIComponent(outcome)}#${LIVE_FORM_ANCHOR}`, 303);
  try {
    const viewer = await requireRoleApi(request, context, handle);
    const actor = memberActor(viewer);
    if (request.method !== "POST") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST"));
    // The story and the viewer's right to cover it first (404, 403), as the JSON API does, before the fields.
    await liveCoverage.authorize(params.id, actor);
    const type = request.headers.get("Content-Type") ?? "";
    if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) {
      return apiError(415, "unsupported_media_type", t.api.unsupportedMediaType);
    }
    const form = await request.formData().catch(() => {
      throw new AppError("live_form_invalid", t.liveNewsroom.failed, 400);
    });
    if (form.get("back") === "article") page = href("/article/:id/:slug?", { id: params.id });
    const asked = parseLiveForm(form, config.timeZone);
    if (asked.kind === "update") {
      // "Enviar como alerta": editors and admins only (a reporter's box is not shown, and is refused here).
      const asAlert = form.get("alert") === "on";
      if (asAlert) requireMayAlert(actor);
      const update = await liveCoverage.postUpdate(params.id, asked.input, actor);
      if (asAlert) {
        const { alertError } = await sendUpdateAlert(pushAlerts, params.id, update.id, actor);
        if (alertError) return back(alertError.code);
        return back("posted-alert");
      }
    } else await liveCoverage.changeCoverage(params.id, asked.patch, actor);
    return back(asked.outcome);
  } catch (error) {
    // What was sent is refused: back to the page, which says why. Not allowed at all, or a failure: the API's answer.
    if (error instanceof AppError && (error.status === 400 || error.status === 409 || error.status === 429)) return back(error.code);
    return toApiError(error, request, log);
  }
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts): reporters and up, per story. */
export const handle = routeFacts({ cache: false, uploads: false, role: "reporter" });

import { href, redirect } from "react-router";
import type { Route } from "./+types/news-return";
import { servicesOf } from "#app/.server/context.server.ts";
import { AppError } from "#app/.server/errors.ts";
import { postOnlyLoader, requireRoleApi, memberActor } from "#app/.server/auth/permissions.server.ts";
import { apiError, toApiError } from "#app/.server/http/api.server.ts";
import { readJsonObject } from "#app/.server/http/submissions.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

/**
 * POST /api/news/:id/return ("Devolver ao repórter"): a story in review goes back to its reporter as a draft, with
 * the editor's note (required, at most REVIEW_NOTE_MAX characters), which the reporter gets by e-mail and sees at the
 * top of the form until they send it for review again. JSON `{ "note": "…", "version"?: n }` answers the save
 * (`{ id, status: "draft", version, … }`); the edit page's form (urlencoded, works without JavaScript) is sent back
 * to the edit page (`?devolvida=1`, or `?devolucao=<code>` when refused). Editors and admins only: a reporter gets
 * 403 `role_forbidden`; a note missing, too long or with a character that cannot be cleaned (app/lib/clean-text.ts)
 * 400 (`note_required`, `note_too_long`, `note_invalid`, under `fields.note`); a
 * story not in review 409 `not_in_review`; a stale `version` 409 `news_version_conflict`.
 */
/** GET: nothing to read here (405), once the caller is known to be an editor or admin (401 / 403 otherwise). */
export function loader({ request, context }: Route.LoaderArgs) {
  return postOnlyLoader(request, context, handle);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { newsEditor, log } = servicesOf(context);
  const contentType = request.headers.get("Content-Type") ?? "";
  const fromPage = contentType.startsWith("application/x-www-form-urlencoded");
  const page = href("/edit-news/:id", { id: params.id });
  try {
    const viewer = await requireRoleApi(request, context, handle);
    if (request.method !== "POST") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST"));
    const { note, version } = await readReturn(request, fromPage);
    const saved = await newsEditor.returnToReporter(params.id, note, memberActor(viewer), version);
    if (fromPage) return redirect(`${page}?devolvida=1&v=${saved.version}`, 303);
    return Response.json(saved, { headers: { "Cache-Control": NO_STORE } });
  } catch (error) {
    if (fromPage && error instanceof AppError && error.status < 500) {
      return redirect(`${page}?devolucao=${encodeURIComponent(error.code)}`, 303);
    }
    return toApiError(error, request, log);
  }
}

async function readReturn(request: Request, fromPage: boolean): Promise<{ note: string; version: number | undefined }> {
  let note: unknown;
  let version: unknown;
  if (fromPage) {
    const form = await request.formData();
    note = form.get("note");
    const sent = form.get("version");
    version = typeof sent === "string" && /^\d+$/.test(sent) ? Number(sent) : undefined;
  } else {
    const body = await readJsonObject(request);
    ({ note, version } = body);
  }
  if (note !== undefined && note !== null && typeof note !== "string") throw new AppError("invalid_field_type", t.api.fieldType("note"), 400);
  if (version !== undefined && version !== null && !(typeof version === "number" && Number.isSafeInteger(version))) {
    throw new AppError("invalid_field_type", t.api.fieldType("version"), 400);
  }
  return { note: note ?? "", version: version ?? undefined };
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts): editors and admins. */
export const handle = routeFacts({ cache: false, uploads: false, role: "editor" });

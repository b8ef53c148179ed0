import { href, redirect } from "react-router";
import type { Route } from "./+types/news-teams";
import { servicesOf } from "#app/.server/context.server.ts";
import { AppError } from "#app/.server/errors.ts";
import { requireRoleApi, memberActor } from "#app/.server/auth/permissions.server.ts";
import { apiError, toApiError } from "#app/.server/http/api.server.ts";
import { readJsonObject } from "#app/.server/http/submissions.server.ts";
import { setStoryTeams, storyToTag, storyTeams } from "#app/.server/news/taxonomy/teams.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { TEAMS_FORM_ANCHOR, TEAMS_FORM_PARAM } from "#app/lib/teams.ts";
import { z } from "#app/lib/zod.ts";

const teamsSchema = z.object({ teams: z.array(z.string().max(123)).max(100) });

/**
 * The clubs a story is tagged with (slugs of the desk's list, /times). Whoever may change the story (a reporter:
 * their own), checked before anything sent is read.
 * - GET: `{ teams: [{ slug, name }] }`.
 * - PUT `{ "teams": ["flamengo", "palmeiras"] }`: exactly these (at most TEAMS_PER_STORY); the same answer. 400
 *   `invalid_teams`, `teams_too_many`, `team_unknown`; 404 `news_not_found`.
 * - POST (the edit page's plain form, without JavaScript): a `time` field per club checked; 303 back to the edit
 *   page with `?times=` `salvos` or the refusal's code, which the page says in words.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { database, log } = servicesOf(context);
  try {
    const viewer = await requireRoleApi(request, context, handle);
    await storyToTag(database.db, params.id, memberActor(viewer));
    return Response.json({ teams: await storyTeams(database.db, params.id) }, { headers: { "Cache-Control": NO_STORE } });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { database, events, log } = servicesOf(context);
  const deps = { db: database.db, events, log };
  const back = (outcome: string) =>
    redirect(`${href("/edit-news/:id", { id: params.id })}?${TEAMS_FORM_PARAM}=${encodeURIComponent(outcome)}#${TEAMS_FORM_ANCHOR}`, 303);
  try {
    const viewer = await requireRoleApi(request, context, handle);
    // The story and the viewer's right to change it first (404, 403), before anything sent is read.
    await storyToTag(database.db, params.id, memberActor(viewer));
    if (request.method === "PUT") {
      const parsed = teamsSchema.safeParse(await readJsonObject(request));
      if (!parsed.success) return apiError(400, "invalid_teams", t.teams.invalid);
      const saved = await setStoryTeams(deps, params.id, parsed.data.teams, memberActor(viewer));
      return Response.json({ teams: saved.teams }, { headers: { "Cache-Control": NO_STORE } });
    }
    if (request.method !== "POST") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("PUT"));
    const type = request.headers.get("Content-Type") ?? "";
    if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) {
      return apiError(415, "unsupported_media_type", t.api.unsupportedMediaType);
    }
    const form = await request.formData().catch(() => {
      throw new AppError("invalid_teams", t.teams.invalid, 400);
    });
    const slugs = form.getAll("time").map(String);
    try {
      await setStoryTeams(deps, params.id, slugs, memberActor(viewer));
    } catch (error) {
      // What was sent is refused: back to the page, which says why.
      if (error instanceof AppError && error.status === 400) return back(error.code);
      throw error;
    }
    return back("salvos");
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts): reporters and up, per story. */
export const handle = routeFacts({ cache: false, uploads: false, role: "reporter" });

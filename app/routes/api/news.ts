import type { Route } from "./+types/news";
import { servicesOf } from "#app/.server/context.server.ts";
import { newsroomAccess, requireRoleApi, memberActor } from "#app/.server/auth/permissions.server.ts";
import { apiError, parseFields, toApiError } from "#app/.server/http/api.server.ts";
import { readsLastWeekOf } from "#app/.server/news/reads/most-read.server.ts";
import { readNewsSubmission, withUploadCleanup, withUploadSlot } from "#app/.server/http/submissions.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { newsInputSchema } from "#app/lib/news-schema.ts";
import { API_PAGE_SIZE, API_PAGE_SIZE_MAX, NEWS_STATUSES, type NewsStatus } from "#app/lib/news-view.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { PRIVATE_NO_STORE } from "#app/lib/cache-headers.ts";

/**
 * GET /api/news: news, newest first (public), a page at a time: `?limit=` (default 50, at most 100), `?cursor=`
 * from the previous answer's `nextCursor` (null on the last page), `?highlighted=1` for the highlights only,
 * `?category=` / `?author=` / `?team=` (a slug, as in /categoria/{slug}, /autor/{slug} and /time/{slug}) for one
 * category's, author's or club's, and for
 * the newsroom `?status=` (draft, review, scheduled, published, all). A signed-in admin also gets `reads`: each item's reads of
 * the last 7 days, by id.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = servicesOf(context);
  const { news, log } = services;
  try {
    const params = new URL(request.url).searchParams;
    const limitParam = params.get("limit");
    const limit = limitParam === null ? API_PAGE_SIZE : Number(limitParam);
    if (!/^\d{1,3}$/.test(limitParam ?? "1") || limit < 1 || limit > API_PAGE_SIZE_MAX) {
      return apiError(400, "invalid_limit", t.newsList.invalidLimit);
    }
    // `?status=` (draft, review, scheduled, published or all) is the newsroom's; readers always get the published news.
    const wanted = params.get("status");
    let status: NewsStatus | null = "published";
    let newsroom = false;
    if (wanted !== null && wanted !== "published" && !NEWS_STATUSES.includes(wanted as NewsStatus) && wanted !== "all") {
      return apiError(400, "invalid_status", t.newsForm.invalidStatus);
    }
    // One lookup of the viewer: an admin gets read counts, the newsroom the status it asked for.
    const access = await newsroomAccess(request, context);
    if (wanted !== null && wanted !== "published" && access.newsroom) {
      newsroom = true;
      status = wanted === "all" ? null : (wanted as NewsStatus);
    }
    const page = await news.listNewsPage({
      cursor: params.get("cursor"),
      highlightedOnly: params.get("highlighted") === "1",
      categorySlug: params.get("category"),
      authorSlug: params.get("author"),
      teamSlug: params.get("team"),
      limit,
      status,
    });
    const reads = access.admin
      ? await readsLastWeekOf(
          page.items.map((item) => item.id),
          services,
        )
      : null;
    // The newsroom's view (drafts, schedules, read counts) is personal: never stored.
    const personal = newsroom || reads ? { headers: { "Cache-Control": PRIVATE_NO_STORE } } : undefined;
    return Response.json({ news: page.items, nextCursor: page.nextCursor, ...(reads ? { reads } : {}) }, personal);
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/**
 * POST /api/news: creates a news item (admin; multipart with an optional `media` file, or JSON). Published at once,
 * unless `status` is `draft`, or `scheduled` with `publishAt` (ISO 8601 with its zone, or without one on the site's
 * clock): the answer says `status`, `publishedAt` and `version`.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST"));
  const services = servicesOf(context);
  const { newsEditor, log } = services;
  try {
    const viewer = await requireRoleApi(request, context, handle);
    return await withUploadSlot(request, viewer.userId, services, async () => {
      const form = await readNewsSubmission(request, services);
      const input = await withUploadCleanup(form, (fields) => parseFields(newsInputSchema, fields));
      const result = await newsEditor.createNews(input, form.file, memberActor(viewer));
      return Response.json(result, { status: 201 });
    });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** Writing (POST) is for reporters and up; a reporter's story is a draft or in review (news-editor.service.server.ts). */
export const handle = routeFacts({ cache: false, uploads: true, role: "reporter" });

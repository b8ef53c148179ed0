import type { Route } from "./+types/news-versions";
import { servicesOf } from "#app/.server/context.server.ts";
import { apiError, toApiError } from "#app/.server/http/api.server.ts";
import { findPublicVersions } from "#app/.server/news/news.queries.server.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { LIVE_PUBLIC_CACHE } from "#app/lib/cache-headers.ts";
import { NEWS_ID } from "#app/lib/news-view.ts";
import { NEWS_VERSIONS_MAX_IDS } from "#app/lib/offline-copies.ts";
import { routeFacts } from "#app/lib/route-facts.ts";

/**
 * GET /api/news-versions?ids=a,b,c (public): for each story, when its public copy last changed (ISO date), or null
 * when readers cannot see it any more. The readers' service worker asks it for the articles saved on a phone: one
 * small answer instead of fetching each article again, and a story taken down leaves every phone on its next visit.
 * The same for anyone (drafts are null as if they did not exist); a CDN may keep it 2 s.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = servicesOf(context);
  try {
    const ids = [...new Set((new URL(request.url).searchParams.get("ids") ?? "").split(",").filter((id) => id !== ""))];
    if (ids.length === 0 || ids.length > NEWS_VERSIONS_MAX_IDS || !ids.every((id) => NEWS_ID.test(id))) {
      return apiError(400, "invalid_ids", t.offline.invalidIds(NEWS_VERSIONS_MAX_IDS));
    }
    const versions = await findPublicVersions(services.database.db, ids);
    return Response.json({ versions }, { headers: { "Cache-Control": LIVE_PUBLIC_CACHE } });
  } catch (error) {
    return toApiError(error, request, services.log);
  }
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: false, uploads: false });

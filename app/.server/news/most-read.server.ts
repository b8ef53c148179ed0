import type { MostReadLink } from "../../components/news/most-read.tsx";
import { hasSessionCookie } from "../../lib/session-cookie.ts";
import { getServices } from "../app.server.ts";
import { requestIdFrom } from "../errors.ts";

/**
 * The "Mais lidas" block of a page (without `excludeId`, the article being read): from the read counter's list,
 * computed once a minute at most for every page. A failure hides the block; the page is not affected.
 */
export async function loadMostRead(request: Request, excludeId?: string): Promise<MostReadLink[]> {
  const { reads, log } = getServices();
  try {
    const items = await reads.mostRead(excludeId === undefined ? {} : { excludeId });
    return items.map(({ id, title }) => ({ id, title }));
  } catch (error) {
    log.error({ err: error, reqId: requestIdFrom(request) }, "most-read load failed");
    return [];
  }
}

/**
 * The reads of the last 7 days of `ids` when the request is a signed-in admin's (the news list shows them to the
 * newsroom), null for anyone else. Readers' requests (no session cookie) cost nothing here.
 */
export async function adminReadsOf(request: Request, ids: readonly string[]): Promise<Record<string, number> | null> {
  if (!hasSessionCookie(request.headers.get("Cookie"))) return null;
  const { auth, reads } = getServices();
  const viewer = await auth.getViewer(request);
  if (!viewer?.isAdmin) return null;
  const counts = await reads.readsLastWeek(ids);
  return Object.fromEntries(ids.map((id) => [id, counts.get(id) ?? 0]));
}

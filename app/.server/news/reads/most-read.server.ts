import type { MostReadLink } from "#app/components/news/most-read.tsx";
import type { AppServices } from "#app/.server/app.server.ts";
import { requestIdFrom } from "#app/.server/errors.ts";

/**
 * The "Mais lidas" block of a page (without `excludeId`, the article being read): from the read counter's list,
 * computed once a minute at most for every page. A failure hides the block; the page is not affected.
 */
export async function loadMostRead(
  request: Request,
  { reads, log }: Pick<AppServices, "reads" | "log">,
  excludeId?: string,
): Promise<MostReadLink[]> {
  try {
    const items = await reads.mostRead(excludeId === undefined ? {} : { excludeId });
    return items.map(({ id, title }) => ({ id, title }));
  } catch (error) {
    log.error({ err: error, reqId: requestIdFrom(request) }, "most-read load failed");
    return [];
  }
}

/**
 * The reads of the last 7 days of `ids`, by id (the news list shows them to the newsroom). Call it only for a
 * signed-in admin's request (`newsroomAccess(…).admin`).
 */
export async function readsLastWeekOf(ids: readonly string[], { reads }: Pick<AppServices, "reads">): Promise<Record<string, number>> {
  const counts = await reads.readsLastWeek(ids);
  return Object.fromEntries(ids.map((id) => [id, counts.get(id) ?? 0]));
}

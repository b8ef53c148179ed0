import type { MostReadLink } from "../../components/news/most-read.tsx";
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


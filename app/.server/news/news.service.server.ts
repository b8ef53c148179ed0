import type { Kysely } from "kysely";
import type { NewsArticle, NewsSummary } from "../../lib/news-view.ts";
import type { Database } from "../db/schema.ts";
import { NotFoundError, wrapFailure } from "../errors.ts";
import { toMediaView } from "../media/media.service.server.ts";
import type { MediaStore } from "../storage/media-store.ts";
import { t } from "../../i18n/pt-BR.ts";
import {
  findAllNews,
  findHighlightsFilled,
  findNewsById,
  findRecentNews,
  type NewsWithMediaRow,
} from "./news.queries.server.ts";

/** How many news the home shows in each block. */
export const HOME_RECENT_COUNT = 3;
export const HOME_HIGHLIGHT_COUNT = 3;

export interface NewsServiceDeps {
  db: Kysely<Database>;
  store: Pick<MediaStore, "publicUrl">;
}

export function createNewsService({ db, store }: NewsServiceDeps) {
  const toSummary = (row: NewsWithMediaRow): NewsSummary => ({
    id: row.id,
    title: row.title,
    subtitle: row.subtitle,
    category: row.category,
    author: row.author,
    isHighlighted: Boolean(row.is_highlighted),
    createdAt: row.created_at,
    media: toMediaView(row, store),
  });

  return {
    /** Every news item, newest first. No paging, as in the original. */
    listNews(): Promise<NewsSummary[]> {
      return wrapFailure("news_list_failed", "Falha ao buscar notícias", async () =>
        (await findAllNews(db)).map(toSummary),
      );
    },

    /** The home's two blocks, in two queries whatever the number of news. */
    getHome(): Promise<{ recent: NewsSummary[]; highlights: NewsSummary[] }> {
      return wrapFailure("news_list_failed", "Falha ao buscar notícias", async () => {
        const [recent, highlights] = await Promise.all([
          findRecentNews(db, HOME_RECENT_COUNT),
          findHighlightsFilled(db, HOME_HIGHLIGHT_COUNT),
        ]);
        return { recent: recent.map(toSummary), highlights: highlights.map(toSummary) };
      });
    },

    /** One news item; throws NotFoundError('Notícia não encontrada') when there is none with that id. */
    getNews(id: string): Promise<NewsArticle> {
      return wrapFailure("news_get_failed", "Falha ao buscar notícia", async () => {
        const row = await findNewsById(db, id);
        if (!row) throw new NotFoundError("news_not_found", t.news.notFound);
        return { ...toSummary(row), fullContent: row.full_content, updatedAt: row.updated_at };
      });
    },
  };
}

export type NewsService = ReturnType<typeof createNewsService>;

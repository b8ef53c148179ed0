import { type Kysely, type SqlBool, sql } from "kysely";
import { t } from "#app/i18n/newsroom.ts";
import type { NewsStatus } from "#app/lib/news-view.ts";
import { NEWSROOM_PAGE_SIZE } from "#app/lib/limits.ts";
import { parsePublishAt } from "#app/lib/zoned-time.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { AppError, wrapFailure } from "#app/.server/errors.ts";
import { foldWord, queryTerms, wordsOf } from "#app/.server/search/portuguese.ts";
import { fts5Match, pgWordsQuery } from "#app/.server/search/search-sql.server.ts";
import { decodeListCursor, encodeListCursor } from "#app/.server/news/list-cursor.ts";
import { viewStatusOf } from "#app/.server/news/news-rows.server.ts";
import { hasViewStatus } from "#app/.server/news/news.queries.server.ts";
import { NEWSROOM_STATUS_FILTERS, type NewsroomQuery } from "#app/lib/newsroom-query.ts";

/** One row of the newsroom list. */
export interface NewsroomRow {
  id: string;
  title: string;
  status: NewsStatus;
  category: string;
  author: string;
  publishedAt: string;
  updatedAt: string;
  /** Its last save was its reporter's correction of it live or scheduled (news_review_events `corrected`). */
  correctedByReporter: boolean;
  /** When it went to the Lixeira (only in the Lixeira's view), or null. */
  deletedAt: string | null;
}

export interface NewsroomPage {
  rows: NewsroomRow[];
  /** The cursor of the next (older) page, or null when this page has the last rows. */
  nextCursor: string | null;
  /** How many stories the filters find in all, and the place of this page's first one (1 on the first page). */
  total: number;
  start: number;
}

/** The first instant of a date on the site's clock. */
function startOfDay(date: string, timeZone: string): string {
  const instant = parsePublishAt(`${date}T00:00`, timeZone);
  if (!instant) throw new AppError("invalid_date", t.newsroom.invalidDate, 400);
  return instant.toISOString();
}

/** The day after a YYYY-MM-DD date. */
function nextDay(date: string): string {
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000);
  return next.toISOString().slice(0, 10);
}

export interface NewsroomListDeps {
  db: Kysely<Database>;
  dialect: "sqlite" | "postgres";
  timeZone: string;
}

/**
 * The newsroom's list (/redacao): every status, filtered by search, status, category, author and a date range on the
 * sorted column, newest first by publication or by last update. Keyset paging on (sorted column, id), as the public
 * list: a page costs the same wherever it is. Indexes: migrations/2026-11-25-010 and 2026-11-27-200.
 *
 * The search is the site's full-text search over every status, for the newsroom only: on PostgreSQL the
 * `search_document` column without the readers' `status = 'published'`; on SQLite the readers' index (`news_fts`,
 * published stories) and the newsroom's (`news_fts_newsroom`, the others). Readers' search never reads the second.
 */
export function createNewsroomList({ db, dialect, timeZone }: NewsroomListDeps) {
  /** The condition "matches the search" (null: the query has nothing searchable, so nothing matches). */
  function searchCondition(q: string) {
    const terms = queryTerms(q);
    if (terms.length === 0) return null;
    if (dialect === "postgres") {
      return sql<SqlBool>`news.search_document @@ ${pgWordsQuery(wordsOf(q).map(foldWord))}`;
    }
    // All the terms must match.
    const match = fts5Match(terms, "AND");
    return sql<SqlBool>`news.id in (
      select d.news_id from news_search_docs d where d.doc in (
        select rowid from news_fts where news_fts match ${match}
        union all
        select rowid from news_fts_newsroom where news_fts_newsroom match ${match}
      )
    )`;
  }

  return {
    /** One page of the list for `query` (its cursor included), at most `limit` rows. */
    async page(query: NewsroomQuery, limit: number = NEWSROOM_PAGE_SIZE): Promise<NewsroomPage> {
      const after = query.cursor ? decodeListCursor(query.cursor) : null;
      return wrapFailure("newsroom_list_failed", t.news.listFailed, async () => {
        const column = query.ordem === "atualizacao" ? "news.updated_at" : "news.published_at";
        // The Lixeira's view lists the trashed stories; every other view leaves them out.
        let filtered = db.selectFrom("news").where("news.deleted_at", query.situacao === "lixeira" ? "is not" : "is", null);
        const status = NEWSROOM_STATUS_FILTERS[query.situacao];
        if (status) filtered = filtered.where((eb) => hasViewStatus(eb, status));
        if (query.categoria) filtered = filtered.where("news.category_slug", "=", query.categoria);
        if (query.autor) filtered = filtered.where("news.author_slug", "=", query.autor);
        if (query.de) filtered = filtered.where(column, ">=", startOfDay(query.de, timeZone));
        if (query.ate) filtered = filtered.where(column, "<", startOfDay(nextDay(query.ate), timeZone));
        if (query.q) {
          const condition = searchCondition(query.q);
          if (!condition) return { rows: [], nextCursor: null, total: 0, start: 1 };
          filtered = filtered.where(condition);
        }
        const count = async (rows: typeof filtered) => Number((await rows.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
        let select = filtered
          .select([
            "news.id",
            "news.title",
            "news.status",
            "news.review_requested_at",
            "news.category",
            "news.author",
            "news.published_at",
            "news.updated_at",
            "news.deleted_at",
          ])
          // Marked until anyone saves it again: the version its reporter's correction made is still the current one.
          .select((eb) =>
            eb
              .exists(
                eb
                  .selectFrom("news_review_events")
                  .select("news_review_events.id")
                  .whereRef("news_review_events.news_id", "=", "news.id")
                  .whereRef("news_review_events.version", "=", "news.version")
                  .where("news_review_events.kind", "=", "corrected"),
              )
              .as("corrected"),
          );
        if (after) select = select.where((eb) => eb(eb.refTuple(column, "news.id"), "<", eb.tuple(after.publishedAt, after.id)));
        // One row more than shown says whether there is a next page, without a count.
        const found = await select
          .orderBy(column, "desc")
          .orderBy("news.id", "desc")
          .limit(limit + 1)
          .execute();
        const rows = found.slice(0, limit).map(
          (row): NewsroomRow => ({
            id: row.id,
            title: row.title,
            status: viewStatusOf(row),
            category: row.category,
            author: row.author,
            publishedAt: row.published_at,
            updatedAt: row.updated_at,
            correctedByReporter: Boolean(row.corrected),
            deletedAt: row.deleted_at,
          }),
        );
        const last = rows.at(-1);
        const nextCursor =
          found.length > limit && last
            ? encodeListCursor({ publishedAt: query.ordem === "atualizacao" ? last.updatedAt : last.publishedAt, id: last.id })
            : null;
        // The count and the page's place ("21–40 de 57"): the stories the filters find, and those before the cursor.
        const total = await count(filtered);
        const before = after
          ? await count(filtered.where((eb) => eb(eb.refTuple(column, "news.id"), ">=", eb.tuple(after.publishedAt, after.id))))
          : 0;
        return { rows, nextCursor, total, start: before + 1 };
      });
    },

    /** The categories and the authors with at least one story of any status, by name: the filter's choices. */
    async terms(): Promise<{ categories: Array<{ slug: string; name: string }>; authors: Array<{ slug: string; name: string }> }> {
      const rows = await db
        .selectFrom("taxonomy_terms")
        .select(["kind", "slug", "name"])
        .where(({ or, and, eb, exists, selectFrom }) =>
          or([
            and([
              eb("kind", "=", "category"),
              exists(selectFrom("news").select("news.id").whereRef("news.category_slug", "=", "taxonomy_terms.slug")),
            ]),
            and([eb("kind", "=", "author"), exists(selectFrom("news").select("news.id").whereRef("news.author_slug", "=", "taxonomy_terms.slug"))]),
          ]),
        )
        .execute();
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, "pt-BR");
      return {
        categories: rows.filter((row) => row.kind === "category").sort(byName),
        authors: rows.filter((row) => row.kind === "author").sort(byName),
      };
    },
  };
}

export type NewsroomList = ReturnType<typeof createNewsroomList>;

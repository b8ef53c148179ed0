import type { Kysely } from "kysely";
import { MATCH_STRIP_MAX, type MatchOfTheDay } from "#app/lib/live-coverage.ts";
import type { NewsArticle, NewsStatus, NewsSummary } from "#app/lib/news-view.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { NotFoundError, wrapFailure } from "#app/.server/errors.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import { t } from "#app/i18n/pt-BR.ts";
import {
  countInReview,
  findDefaultLead,
  findFrontPagePicks,
  findHighlightsFilled,
  findNewsById,
  findNewsPage,
  findRecentInCategory,
  findRecentMatches,
  findUpcomingMatches,
  findRecentNews,
  type MatchFilter,
  type NewsWithMediaRow,
} from "./news.queries.server.ts";
import { findTeam, listTeamsInUse, storyTeams, type TeamInUse } from "./taxonomy/teams.server.ts";
import type { Team } from "#app/lib/teams.ts";
import { decodeListCursor, encodeListCursor } from "./list-cursor.ts";
import { toMatchOfTheDay, toNewsArticle, toNewsSummary } from "./news-rows.server.ts";
import { type ArrangedSection, arrangeSections } from "./taxonomy/sections.server.ts";
import { findSectionSettings } from "./taxonomy/section-settings.queries.server.ts";
import { memoUntilChanged } from "#app/.server/events/memo.server.ts";
import {
  findTermName,
  listCategoryNames,
  listLiveSectionSlugs,
  listSectionsByVolume,
  type SectionRow,
  type TermKind,
} from "./taxonomy/taxonomy.server.ts";

/** How many news the home shows in each block. */
export const HOME_RECENT_COUNT = 3;
export const HOME_HIGHLIGHT_COUNT = 3;
/** The home's blocks per section: the top sections by volume, and the newest news of each. */
export const HOME_SECTION_BLOCKS = 4;
export const HOME_SECTION_COUNT = 4;

/** A category readers can reach (the section menu): slug, shown name, published news, a story under live coverage. */
export type Section = SectionRow & { live: boolean };

/** One of the home's section blocks: a category and its newest news not already shown higher on the page. */
export interface HomeSection {
  slug: string;
  name: string;
  items: NewsSummary[];
}

export interface HomeNews {
  recent: NewsSummary[];
  highlights: NewsSummary[];
  sections: HomeSection[];
  /** The matches of the last day and a half ("Jogos de hoje": the page keeps today's, matchesOfTheDay). */
  matches: MatchOfTheDay[];
}

/** How far back the strip's matches are read: today's, on any clock, whatever time the memo was filled. */
const MATCHES_WINDOW_MS = 36 * 3_600_000;
/** How far ahead a club's page looks for its next matches. */
const CLUB_MATCHES_AHEAD_MS = 14 * 24 * 3_600_000;
/** The clubs in the section menu's team row, at most (the most covered). */
export const MENU_TEAMS_MAX = 24;

export interface NewsPageRequest {
  /** Opaque cursor from a previous page's `nextCursor`; none for the first page. */
  cursor?: string | null;
  highlightedOnly?: boolean;
  /** Only this category's (slug) news. */
  categorySlug?: string | null;
  /** Only this author's (slug) news. */
  authorSlug?: string | null;
  /** Only the news tagged with this club (slug). */
  teamSlug?: string | null;
  limit: number;
  /** Which items: readers always get 'published' (the default); an admin may ask for another status or all (null). */
  status?: NewsStatus | null;
}

export interface NewsPage {
  items: NewsSummary[];
  /** Where the next page starts, or null when this page reaches the oldest item. */
  nextCursor: string | null;
}

export interface NewsServiceDeps {
  db: Kysely<Database>;
  store: Pick<MediaStore, "publicUrl">;
}

/** How long a highlighted story may lead the home by itself (without an editor's pick): a day. */
export const HOME_LEAD_HIGHLIGHT_HOURS = 24;

/**
 * The top of the home (the manchete and the two stories beside it), in order: where an editor placed a story at
 * /capa (front-page.server.ts) and the choice still holds, that story; the lead otherwise goes to a story under live
 * coverage, else to a story highlighted in the last day, else to the newest; the other places to the newest stories
 * not shown yet. Read again at least every minute (the home's memo), so a choice that ends is soon gone.
 */
export async function findFrontPage(db: Kysely<Database>, now: Date): Promise<NewsWithMediaRow[]> {
  const slots: Array<NewsWithMediaRow | null> = Array.from({ length: HOME_RECENT_COUNT }, () => null);
  for (const pick of await findFrontPagePicks(db, now.toISOString())) {
    if (pick.pick_position >= 1 && pick.pick_position <= HOME_RECENT_COUNT) slots[pick.pick_position - 1] = pick;
  }
  const taken = () => slots.flatMap((row) => (row ? [row.id] : []));
  if (!slots[0]) {
    const since = new Date(now.getTime() - HOME_LEAD_HIGHLIGHT_HOURS * 3_600_000).toISOString();
    slots[0] = (await findDefaultLead(db, since, taken())) ?? null;
  }
  const empty = slots.filter((row) => !row).length;
  const newest = empty > 0 ? await findRecentNews(db, empty, taken()) : [];
  return slots.map((row) => row ?? newest.shift() ?? null).filter((row): row is NewsWithMediaRow => row !== null);
}

export function createNewsService({ db, store }: NewsServiceDeps) {
  const toSummary = (row: NewsWithMediaRow) => toNewsSummary(row, store);
  // The section list and the home's blocks are on every reader page: kept in memory until the news change
  // (`invalidate`, on the event bus).
  const sections = memoUntilChanged(() =>
    Promise.all([listSectionsByVolume(db), findSectionSettings(db), listLiveSectionSlugs(db)]).then(([byVolume, settings, live]) =>
      arrangeSections(byVolume, settings).map(({ slug, name, count }) => ({ slug, name, count, live: live.has(slug) })),
    ),
  );
  const listSections = () => sections.get();
  const teamsInUse = memoUntilChanged(() => listTeamsInUse(db).then((teams) => teams.slice(0, MENU_TEAMS_MAX)));
  const home = memoUntilChanged(async (): Promise<HomeNews> => {
    const [recentRows, sectionList, matches] = await Promise.all([findFrontPage(db, new Date()), listSections(), recentMatches()]);
    const shown = recentRows.map((row) => row.id);
    const highlightRows = await findHighlightsFilled(db, HOME_HIGHLIGHT_COUNT, shown);
    shown.push(...highlightRows.map((row) => row.id));
    // A story has one category: the section blocks cannot repeat one another, only the blocks above.
    const top = sectionList.slice(0, HOME_SECTION_BLOCKS);
    const sectionRows = await Promise.all(top.map((section) => findRecentInCategory(db, section.slug, HOME_SECTION_COUNT, shown)));
    return {
      recent: recentRows.map(toSummary),
      highlights: highlightRows.map(toSummary),
      sections: top
        .map((section, index) => ({ slug: section.slug, name: section.name, items: (sectionRows[index] ?? []).map(toSummary) }))
        .filter((section) => section.items.length > 0),
      matches,
    };
  });

  /**
   * The matches whose coverage started in the last day and a half, and those announced for the next day and a half
   * (of one category).
   */
  async function recentMatches(filter: MatchFilter = {}, aheadMs = MATCHES_WINDOW_MS): Promise<MatchOfTheDay[]> {
    const now = Date.now();
    const since = new Date(now - MATCHES_WINDOW_MS).toISOString();
    const until = new Date(now + aheadMs).toISOString();
    const [started, upcoming] = await Promise.all([
      findRecentMatches(db, since, 4 * MATCH_STRIP_MAX, filter),
      findUpcomingMatches(db, since, until, 4 * MATCH_STRIP_MAX, filter),
    ]);
    return [...started, ...upcoming].map(toMatchOfTheDay).filter((match): match is MatchOfTheDay => match !== null);
  }

  return {
    /**
     * One page of news, newest first (all of them, or only the highlighted ones), starting after `cursor`.
     * Throws InvalidInputError for a cursor this service did not make.
     */
    listNewsPage({
      cursor,
      highlightedOnly = false,
      limit,
      status = "published",
      categorySlug,
      authorSlug,
      teamSlug,
    }: NewsPageRequest): Promise<NewsPage> {
      return wrapFailure("news_list_failed", t.news.listFailed, async () => {
        const after = cursor ? decodeListCursor(cursor) : null;
        // One row more than asked tells whether there is a next page without a count.
        const rows = await findNewsPage(db, { after, highlightedOnly, limit: limit + 1, status, categorySlug, authorSlug, teamSlug });
        const items = rows.slice(0, limit).map(toSummary);
        const last = items.at(-1);
        return { items, nextCursor: rows.length > limit && last ? encodeListCursor(last) : null };
      });
    },

    /** The shown name of a category or author slug; throws NotFoundError when no published news uses it. */
    getTerm(kind: TermKind, slug: string): Promise<{ kind: TermKind; slug: string; name: string }> {
      return wrapFailure("news_list_failed", t.news.listFailed, async () => {
        const name = await findTermName(db, kind, slug);
        if (name === null) throw new NotFoundError("term_not_found", kind === "category" ? t.taxonomy.categoryNotFound : t.taxonomy.authorNotFound);
        return { kind, slug, name };
      });
    },

    /** A club of the desk's list (its page); throws NotFoundError for one not in the list. */
    getTeam(slug: string): Promise<Team> {
      return wrapFailure("news_list_failed", t.news.listFailed, async () => {
        const team = await findTeam(db, slug);
        if (!team) throw new NotFoundError("team_not_found", t.taxonomy.teamNotFound);
        return team;
      });
    },

    /**
     * The clubs with published stories, most stories first (at most MENU_TEAMS_MAX): the section menu's team row.
     * Served from memory until the next change to the news (`invalidate`).
     */
    listTeamsInUse(): Promise<TeamInUse[]> {
      return wrapFailure("news_list_failed", t.news.listFailed, () => teamsInUse.get());
    },

    /** The clubs a story is tagged with, by name (its page links to theirs). */
    storyTeams(newsId: string): Promise<Team[]> {
      return wrapFailure("news_get_failed", t.news.getFailed, () => storyTeams(db, newsId));
    },

    /** How many stories are in review (the editors' count in the newsroom drawer). */
    countInReview(): Promise<number> {
      return wrapFailure("news_list_failed", t.news.listFailed, () => countInReview(db));
    },

    /** Every category in use, by name (the news form's suggestions). */
    listCategories(): Promise<string[]> {
      return wrapFailure("news_list_failed", t.news.listFailed, () => listCategoryNames(db));
    },

    /**
     * The categories with published news, in the admin's order then most news first, without the hidden ones: the
     * section menu and the home's section blocks. Served from memory until the next
     * change to the news (`invalidate`).
     */
    listSections(): Promise<Section[]> {
      return wrapFailure("news_list_failed", t.news.listFailed, listSections);
    },

    /** Every category in use with the admin's arrangement, hidden ones included (the admin's /secoes page). */
    listSectionsForAdmin(): Promise<ArrangedSection[]> {
      return wrapFailure("news_list_failed", t.news.listFailed, async () => {
        const [byVolume, settings] = await Promise.all([listSectionsByVolume(db), findSectionSettings(db)]);
        return arrangeSections(byVolume, settings, true);
      });
    },

    /** The news changed (published, unpublished, recategorised…): the next `listSections` and `getHome` ask the database again. */
    invalidate(): void {
      sections.invalidate();
      teamsInUse.invalidate();
      home.invalidate();
    },

    /**
     * The home's blocks without repeats (kept in memory until the news change): the newest news, then the highlights (filled with other news) without
     * those, then the newest of each top section without anything already shown. A section left empty is dropped.
     */
    getHome(): Promise<HomeNews> {
      return wrapFailure("news_list_failed", t.news.listFailed, () => home.get());
    },

    /** A section's matches for its "Jogos de hoje" strip (the last day and a half; the page keeps today's). */
    sectionMatches(categorySlug: string): Promise<MatchOfTheDay[]> {
      return wrapFailure("news_list_failed", t.news.listFailed, () => recentMatches({ categorySlug }));
    },

    /** A club's matches for its page: live now, announced for the next two weeks, ended in the last day and a half. */
    teamMatches(teamSlug: string): Promise<MatchOfTheDay[]> {
      return wrapFailure("news_list_failed", t.news.listFailed, () => recentMatches({ teamSlug }, CLUB_MATCHES_AHEAD_MS));
    },

    /**
     * One news item; throws NotFoundError('Notícia não encontrada') when there is none with that id, or when it is
     * not published and the caller is not an admin (`includeUnpublished`): a draft does not exist for readers.
     */
    getNews(id: string, { includeUnpublished = false }: { includeUnpublished?: boolean } = {}): Promise<NewsArticle> {
      return wrapFailure("news_get_failed", t.news.getFailed, async () => {
        const row = await findNewsById(db, id, { includeUnpublished });
        if (!row) throw new NotFoundError("news_not_found", t.news.notFound);
        return toNewsArticle(row, store);
      });
    },
  };
}

export type NewsService = ReturnType<typeof createNewsService>;

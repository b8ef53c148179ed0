import type { Kysely, Transaction } from "kysely";
import { t } from "#app/i18n/newsroom.ts";
import { checkTeamName, TEAMS_PER_STORY, type Team, teamNameKey } from "#app/lib/teams.ts";
import { termPath } from "#app/lib/slug.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { AppError, NotFoundError } from "#app/.server/errors.ts";
import type { EventBus } from "#app/.server/events/event-bus.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { type Actor, actorIdOf, requireReporterMayChange } from "#app/.server/auth/permissions.server.ts";
import { audienceOf, storyPaths } from "#app/.server/news/story-paths.server.ts";

/**
 * The clubs the desk keeps (/times, migration 2026-11-29-301) and the clubs each story is tagged with. A club's page
 * (/time/{slug}) lists its published stories and its matches; a change to the list or to a story's clubs reaches
 * readers like a story's change (`newsUpdated`: memos, page cache, CDN).
 */
export interface TeamsDeps {
  db: Kysely<Database>;
  events: Pick<EventBus, "withCommit">;
  log: Pick<Logger, "info">;
}

type Db = Kysely<Database> | Transaction<Database>;

/** A club of the list with how many stories (any status) carry it: the desk's page. */
export interface TeamWithCount extends Team {
  count: number;
}

/** A club as readers reach it: with how many published stories carry it (the team row of the section menu). */
export interface TeamInUse extends Team {
  count: number;
}

/** A refused change to the list: 400 for the name, 409 for a club already there, with the pt-BR message. */
function nameError(message: string): AppError {
  return new AppError("team_name_invalid", message, 400);
}

/** The whole list, by name, with each club's number of stories. */
export async function listTeams(db: Kysely<Database>): Promise<TeamWithCount[]> {
  const rows = await db
    .selectFrom("teams")
    .leftJoin("news_teams", "news_teams.team_slug", "teams.slug")
    .select((eb) => ["teams.slug", "teams.name", eb.fn.count<number | string>("news_teams.news_id").as("n")])
    .groupBy(["teams.slug", "teams.name"])
    .execute();
  return rows.map((row) => ({ slug: row.slug, name: row.name, count: Number(row.n) })).sort((a, b) => a.name.localeCompare(b.name, "pt-BR"));
}

/** The clubs with at least one published story, most stories first (ties by name): the section menu's team row. */
export async function listTeamsInUse(db: Kysely<Database>): Promise<TeamInUse[]> {
  const rows = await db
    .selectFrom("news_teams")
    .innerJoin("news", "news.id", "news_teams.news_id")
    .innerJoin("teams", "teams.slug", "news_teams.team_slug")
    .select((eb) => ["teams.slug", "teams.name", eb.fn.countAll<number | string>().as("n")])
    .where("news.status", "=", "published")
    .where("news.deleted_at", "is", null)
    .groupBy(["teams.slug", "teams.name"])
    .execute();
  return rows
    .map((row) => ({ slug: row.slug, name: row.name, count: Number(row.n) }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, "pt-BR"));
}

/** One club of the list, or null (its page is a 404). */
export async function findTeam(db: Db, slug: string): Promise<Team | null> {
  if (slug.length > 123) return null;
  const row = await db.selectFrom("teams").select(["slug", "name"]).where("slug", "=", slug).executeTakeFirst();
  return row ?? null;
}

/** The club already in the list under `name`'s key (another spelling of it), if any. */
function findByKey(db: Db, key: string, exceptSlug?: string) {
  let query = db.selectFrom("teams").select(["slug", "name"]).where("name_key", "=", key);
  if (exceptSlug) query = query.where("slug", "!=", exceptSlug);
  return query.executeTakeFirst();
}

/**
 * Adds a club to the list. 400 for a name that cannot be one (blank, too long, no letter), 409 `team_exists` when
 * the list has it under another spelling ("sao paulo" when "São Paulo" is there). Its page's address is its folded
 * name, or that with "-2", "-3" … when a renamed club kept it.
 */
export async function addTeam({ db, events, log }: TeamsDeps, rawName: unknown, actor: Actor, now = new Date()): Promise<Team> {
  const checked = checkTeamName(rawName);
  if ("error" in checked) throw nameError(checked.error);
  const key = teamNameKey(checked.name);
  const team = await events.withCommit(db, async (trx) => {
    const existing = await findByKey(trx, key);
    if (existing) throw new AppError("team_exists", t.teams.exists(existing.name), 409);
    let slug = key.slice(0, 80).replace(/-+$/, "");
    for (let n = 2; await findTeam(trx, slug); n++) slug = `${key.slice(0, 76).replace(/-+$/, "")}-${n}`;
    await trx
      .insertInto("teams")
      .values({ slug, name: checked.name, name_key: key, created_at: now.toISOString(), created_by: actorIdOf(actor) })
      .execute();
    // A new club carries no story yet: nothing readers see changes.
    return { slug, name: checked.name };
  });
  log.info({ actor: actorIdOf(actor), team: team.slug }, "team added");
  return team;
}

/**
 * Renames a club (its page keeps its address). 404 for a club not in the list; 400 / 409 as `addTeam`. Every page
 * showing its name (its stories, the menu) is re-read.
 */
export async function renameTeam({ db, events, log }: TeamsDeps, slug: string, rawName: unknown, actor: Actor): Promise<Team> {
  const checked = checkTeamName(rawName);
  if ("error" in checked) throw nameError(checked.error);
  const key = teamNameKey(checked.name);
  await events.withCommit(db, async (trx, send) => {
    const team = await findTeam(trx, slug);
    if (!team) throw new NotFoundError("team_not_found", t.teams.notFound);
    const other = await findByKey(trx, key, slug);
    if (other) throw new AppError("team_exists", t.teams.exists(other.name), 409);
    if (team.name === checked.name) return;
    await trx.updateTable("teams").set({ name: checked.name, name_key: key }).where("slug", "=", slug).execute();
    // The name is on its stories' pages and in the menu: the whole site is re-read.
    await send("newsUpdated");
  });
  log.info({ actor: actorIdOf(actor), team: slug }, "team renamed");
  return { slug, name: checked.name };
}

/** Removes a club from the list and from every story tagged with it (the stories stay as they are). 404 when absent. */
export async function removeTeam({ db, events, log }: TeamsDeps, slug: string, actor: Actor): Promise<Team> {
  const team = await events.withCommit(db, async (trx, send) => {
    const found = await findTeam(trx, slug);
    if (!found) throw new NotFoundError("team_not_found", t.teams.notFound);
    await trx.deleteFrom("teams").where("slug", "=", slug).execute();
    await send("newsUpdated");
    return found;
  });
  log.info({ actor: actorIdOf(actor), team: slug }, "team removed");
  return team;
}

/** The clubs a story is tagged with, by name. */
export async function storyTeams(db: Db, newsId: string): Promise<Team[]> {
  const rows = await db
    .selectFrom("news_teams")
    .innerJoin("teams", "teams.slug", "news_teams.team_slug")
    .select(["teams.slug", "teams.name"])
    .where("news_teams.news_id", "=", newsId)
    .execute();
  return rows.sort((a, b) => a.name.localeCompare(b.name, "pt-BR"));
}

/** The club pages (/time/{slug}) that list any of these stories: what a change to them must stop serving at once. */
export async function teamPathsOf(db: Db, newsIds: readonly string[]): Promise<string[]> {
  if (newsIds.length === 0) return [];
  const rows = await db.selectFrom("news_teams").select("team_slug").distinct().where("news_id", "in", newsIds).execute();
  return rows.map((row) => termPath("team", row.team_slug));
}

/**
 * The story `actor` wants to tag, once they may change it (a reporter: their own): 404 `news_not_found`, 403
 * otherwise. Asked before the request's body is read, and again in the change's transaction.
 */
export async function storyToTag(db: Db, newsId: string, actor: Actor) {
  const story = await db
    .selectFrom("news")
    .select(["id", "title", "category_slug", "author_slug", "status", "owner_id", "review_requested_at"])
    .where("id", "=", newsId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!story) throw new NotFoundError("news_not_found", t.news.notFound);
  requireReporterMayChange(actor, story);
  return story;
}

/**
 * Tags a story with exactly these clubs (slugs of the list). Whoever may change the story may tag it (a reporter:
 * their own). 400 `teams_too_many` past TEAMS_PER_STORY, 400 `team_unknown` for a slug not in the list, 404
 * `news_not_found`. The story's own version is left alone (an open edit form keeps saving); its pages and the pages
 * of the clubs it gains or loses stop being served at once.
 */
export async function setStoryTeams(
  { db, events, log }: TeamsDeps,
  newsId: string,
  slugs: readonly string[],
  actor: Actor,
): Promise<{ teams: Team[]; changed: boolean }> {
  const wanted = [...new Set(slugs)];
  if (wanted.length > TEAMS_PER_STORY) throw new AppError("teams_too_many", t.teams.tooMany(TEAMS_PER_STORY), 400);
  const result = await events.withCommit(db, async (trx, send) => {
    const story = await storyToTag(trx, newsId, actor);
    if (wanted.length > 0) {
      const known = await trx.selectFrom("teams").select("slug").where("slug", "in", wanted).execute();
      if (known.length !== wanted.length) throw new AppError("team_unknown", t.teams.unknown, 400);
    }
    const before = (await trx.selectFrom("news_teams").select("team_slug").where("news_id", "=", newsId).execute()).map((row) => row.team_slug);
    const removed = before.filter((slug) => !wanted.includes(slug));
    const added = wanted.filter((slug) => !before.includes(slug));
    if (removed.length > 0) await trx.deleteFrom("news_teams").where("news_id", "=", newsId).where("team_slug", "in", removed).execute();
    if (added.length > 0)
      await trx
        .insertInto("news_teams")
        .values(added.map((team_slug) => ({ news_id: newsId, team_slug })))
        .execute();
    const changed = removed.length + added.length > 0;
    if (changed) {
      const paths = [...storyPaths(story), ...[...removed, ...added].map((slug) => termPath("team", slug))];
      await send("newsUpdated", { paths, ...audienceOf(story) });
    }
    return { teams: await storyTeams(trx, newsId), changed };
  });
  if (result.changed) log.info({ actor: actorIdOf(actor), newsId, teams: result.teams.map((team) => team.slug) }, "story teams set");
  return result;
}

/**
 * Tags a story with the clubs of the list its match names (the scoreboard's teams, when announced or covered live),
 * adding to what it has, within TEAMS_PER_STORY. Nothing for names not in the list. Returns the slugs added (the
 * caller's change event covers them).
 */
export async function tagMatchTeams(trx: Transaction<Database>, newsId: string, names: readonly string[]): Promise<string[]> {
  const keys = [...new Set(names.map(teamNameKey).filter(Boolean))];
  if (keys.length === 0) return [];
  const found = await trx.selectFrom("teams").select("slug").where("name_key", "in", keys).execute();
  if (found.length === 0) return [];
  const have = (await trx.selectFrom("news_teams").select("team_slug").where("news_id", "=", newsId).execute()).map((row) => row.team_slug);
  const room = TEAMS_PER_STORY - have.length;
  const added = found
    .map((row) => row.slug)
    .filter((slug) => !have.includes(slug))
    .slice(0, Math.max(0, room));
  if (added.length > 0)
    await trx
      .insertInto("news_teams")
      .values(added.map((team_slug) => ({ news_id: newsId, team_slug })))
      .execute();
  return added;
}

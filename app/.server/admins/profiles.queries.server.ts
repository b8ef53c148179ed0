import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/.server/db/schema.ts";
import { JOINED_MEDIA_COLUMNS } from "#app/.server/news/news.queries.server.ts";
import { termSlug } from "#app/.server/news/taxonomy/taxonomy.server.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** A team member as an author: the name they sign with (their profile's, else their account's) and its slug. */
export interface MemberAuthor {
  userId: string;
  displayName: string;
  slug: string;
}

/** Every current member (any role) with the name they sign with, by name: the news form's author choices. */
export async function listMemberAuthors(db: Db): Promise<MemberAuthor[]> {
  const rows = await db
    .selectFrom("admins")
    .innerJoin("user", "user.id", "admins.user_id")
    .leftJoin("member_profiles", "member_profiles.user_id", "admins.user_id")
    .select(["admins.user_id", "user.name", "member_profiles.display_name", "member_profiles.slug"])
    .execute();
  return rows
    .map((row) => {
      const displayName = row.display_name ?? row.name;
      return { userId: row.user_id, displayName, slug: row.slug ?? termSlug(displayName) };
    })
    .sort((a, b) => a.displayName.localeCompare(b.displayName, "pt-BR"));
}

/**
 * The member whose signing name has this slug (a profile's first, then an account name's), or, for a slug a member
 * left by renaming themselves, that member (with their current name and slug); null otherwise.
 */
export async function memberAuthorBySlug(db: Db, slug: string): Promise<MemberAuthor | null> {
  if (!slug) return null;
  const current = (await listMemberAuthors(db)).find((member) => member.slug === slug);
  return current ?? memberOfAlias(db, slug);
}

/**
 * A member renamed themselves (their signing name is now `name`, its slug `slug`): every story linked to them takes
 * the new name and slug, the slugs their stories had become aliases of theirs (the old /autor/ address redirects),
 * a slug their profile takes is no one's alias any more, and the new name is the author term's spelling. Returns the
 * slugs the stories left (their pages change).
 */
export async function renameMemberStories(db: Db, userId: string, name: string, slug: string, now: string): Promise<string[]> {
  const left = await db
    .selectFrom("news")
    .select("author_slug")
    .distinct()
    .where("author_user_id", "=", userId)
    .where("author_slug", "<>", slug)
    .where("author_slug", "<>", "")
    .execute();
  const oldSlugs = left.map((row) => row.author_slug);
  await db.deleteFrom("author_slug_aliases").where("slug", "=", slug).execute();
  for (const old of oldSlugs) {
    await db
      .insertInto("author_slug_aliases")
      .values({ slug: old, user_id: userId, created_at: now })
      .onConflict((oc) => oc.column("slug").doUpdateSet({ user_id: userId, created_at: now }))
      .execute();
  }
  await db
    .insertInto("taxonomy_terms")
    .values({ kind: "author", slug, name, created_at: now })
    .onConflict((oc) => oc.columns(["kind", "slug"]).doUpdateSet({ name }))
    .execute();
  await db
    .updateTable("news")
    .set({ author: name, author_slug: slug })
    .where("author_user_id", "=", userId)
    .where((eb) => eb.or([eb("author_slug", "<>", slug), eb("author", "<>", name)]))
    .execute();
  return oldSlugs;
}

/** The slugs a member's stories were listed under before renames (each redirects to their current page). */
export async function aliasesOfMember(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom("author_slug_aliases").select("slug").where("user_id", "=", userId).execute();
  return rows.map((row) => row.slug);
}

/** The member a left slug belongs to, with their current signing name and slug, or null. */
export async function memberOfAlias(db: Db, slug: string): Promise<MemberAuthor | null> {
  const alias = await db.selectFrom("author_slug_aliases").select("user_id").where("slug", "=", slug).executeTakeFirst();
  if (!alias) return null;
  return (await listMemberAuthors(db)).find((member) => member.userId === alias.user_id) ?? null;
}

export function findProfileRow(db: Db, userId: string) {
  return db
    .selectFrom("member_profiles")
    .leftJoin("media", "media.id", "member_profiles.photo_media_id")
    .select([
      "member_profiles.user_id",
      "member_profiles.display_name",
      "member_profiles.slug",
      "member_profiles.bio",
      "member_profiles.photo_media_id",
      "member_profiles.link_x",
      "member_profiles.link_instagram",
      "member_profiles.link_site",
      ...JOINED_MEDIA_COLUMNS,
    ])
    .where("member_profiles.user_id", "=", userId)
    .executeTakeFirst();
}

export type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfileRow>>>;

/** Whether another account's profile already uses this slug. */
export async function slugTakenByOther(db: Db, slug: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom("member_profiles").select("user_id").where("slug", "=", slug).where("user_id", "<>", userId).executeTakeFirst();
  return Boolean(row);
}

export async function upsertProfile(
  db: Db,
  row: {
    user_id: string;
    display_name: string;
    slug: string;
    bio: string;
    photo_media_id: string | null;
    link_x: string | null;
    link_instagram: string | null;
    link_site: string | null;
    updated_at: string;
  },
): Promise<void> {
  const { user_id: _id, ...changes } = row;
  await db
    .insertInto("member_profiles")
    .values(row)
    .onConflict((oc) => oc.column("user_id").doUpdateSet(changes))
    .execute();
}

/** The member a story's author is (its `author_user_id`), or null for a free-text author. */
export async function storyAuthorUserId(db: Db, newsId: string): Promise<string | null> {
  const row = await db.selectFrom("news").select("author_user_id").where("id", "=", newsId).executeTakeFirst();
  return row?.author_user_id ?? null;
}

/** The member whose published stories are signed with this slug (the newest such story's), or null. */
export async function authorUserIdOfSlug(db: Db, slug: string): Promise<string | null> {
  const row = await db
    .selectFrom("news")
    .select("author_user_id")
    .where("author_slug", "=", slug)
    .where("status", "=", "published")
    .where("author_user_id", "is not", null)
    .orderBy("published_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.author_user_id ?? null;
}

/** The paths of the published stories a member signs (the byline box on each changes with the profile). */
export async function storyPathsOfAuthor(db: Db, userId: string): Promise<Array<{ id: string; title: string }>> {
  return db.selectFrom("news").select(["id", "title"]).where("author_user_id", "=", userId).where("status", "=", "published").execute();
}

import { type Kysely, sql } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * A member's rename follows them.
 *
 * - `author_slug_aliases`: an /autor/{slug} a member's stories were listed under before they renamed themselves
 *   (`slug`, unique) and whose member it was (`user_id`): the old address answers 301 with the member's current one,
 *   and a story still saved with the old name (a form opened before the rename) stays that member's. A slug that a
 *   member's profile takes again stops being an alias. ISO-8601 UTC `created_at`.
 * - The stories of members who renamed themselves before this migration (signed with the old name and slug, linked
 *   to the member by `author_user_id`) take the profile's name and slug; their old slugs become aliases, and the new
 *   name its author term (the spelling the author page shows).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("author_slug_aliases")
    .addColumn("slug", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("author_slug_aliases_user_idx").on("author_slug_aliases").column("user_id").execute();

  const now = new Date().toISOString();
  // One owner per old slug (two members sharing one old slug is not possible through the app; the first id wins).
  await sql`insert into author_slug_aliases (slug, user_id, created_at)
    select n.author_slug, min(n.author_user_id), ${now}
    from news n join member_profiles p on p.user_id = n.author_user_id
    where n.author_slug <> p.slug and n.author_slug <> ''
      and not exists (select 1 from member_profiles other where other.slug = n.author_slug)
    group by n.author_slug`.execute(db);
  await sql`insert into taxonomy_terms (kind, slug, name, created_at)
    select 'author', p.slug, p.display_name, ${now} from member_profiles p
    where exists (select 1 from news n where n.author_user_id = p.user_id and n.author_slug <> p.slug)
      and not exists (select 1 from taxonomy_terms t where t.kind = 'author' and t.slug = p.slug)`.execute(db);
  await sql`update news set
      author = (select p.display_name from member_profiles p where p.user_id = news.author_user_id),
      author_slug = (select p.slug from member_profiles p where p.user_id = news.author_user_id)
    where exists (select 1 from member_profiles p
      where p.user_id = news.author_user_id and (p.slug <> news.author_slug or p.display_name <> news.author))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // The stories keep their members' current names (the old spelling is in their revisions).
  await db.schema.dropIndex("author_slug_aliases_user_idx").execute();
  await db.schema.dropTable("author_slug_aliases").execute();
}

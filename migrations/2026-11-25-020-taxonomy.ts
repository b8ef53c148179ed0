import { type Kysely, sql } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * Categories and authors as pages (/categoria/{slug}, /autor/{slug}). Each news item carries the slug of its category
 * and of its author (accents and case folded: "Vôlei" and "volei" are one), indexed with (status, published_at, id) so a page
 * of a category or an author is an index range like the list's. `taxonomy_terms` keeps each slug's first spelling,
 * which is the one shown everywhere (existing news take it here).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("taxonomy_terms")
    .addColumn("kind", "text", (col) => col.notNull().check(sql`kind in ('category', 'author')`))
    .addColumn("slug", "text", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("taxonomy_terms_pk", ["kind", "slug"])
    .execute();
  await db.schema
    .alterTable("news")
    .addColumn("category_slug", "text", (col) => col.notNull().defaultTo(""))
    .execute();
  await db.schema
    .alterTable("news")
    .addColumn("author_slug", "text", (col) => col.notNull().defaultTo(""))
    .execute();

  // Each distinct spelling, in the order it was first used.
  for (const [kind, column, slugColumn] of [
    ["category", "category", "category_slug"],
    ["author", "author", "author_slug"],
  ] as const) {
    const { rows } = await sql<{ value: string; first: string }>`
      select ${sql.ref(column)} as value, min(created_at) as first from news group by ${sql.ref(column)} order by first, value
    `.execute(db);
    const names = new Map<string, { name: string; first: string }>();
    for (const row of rows) {
      // A blank value (shown as the default) has no page.
      if (!row.value.trim()) continue;
      const slug = termSlug(row.value);
      if (!names.has(slug)) names.set(slug, { name: row.value, first: row.first });
      await db
        .updateTable("news")
        .set({ [column]: names.get(slug)!.name, [slugColumn]: slug })
        .where(column, "=", row.value)
        .execute();
    }
    for (const [slug, { name, first }] of names) {
      await db.insertInto("taxonomy_terms").values({ kind, slug, name, created_at: first }).execute();
    }
  }

  await db.schema.createIndex("news_category_slug_idx").on("news").columns(["category_slug", "status", "published_at", "id"]).execute();
  await db.schema.createIndex("news_author_slug_idx").on("news").columns(["author_slug", "status", "published_at", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("news_author_slug_idx").execute();
  await db.schema.dropIndex("news_category_slug_idx").execute();
  await db.schema.alterTable("news").dropColumn("author_slug").execute();
  await db.schema.alterTable("news").dropColumn("category_slug").execute();
  await db.schema.dropTable("taxonomy_terms").execute();
}

/** A copy of termSlug (app/.server/news/taxonomy/taxonomy.server.ts) as it was when this migration was written: a migration must not change when the app's code does. */
function termSlug(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || `t-${Buffer.from(text.trim().normalize("NFC"), "utf8").toString("hex").slice(0, 60)}`;
}

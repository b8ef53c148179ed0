import type { Kysely, Transaction } from "kysely";
import { foldToSlug } from "#app/lib/slug.ts";
import type { Database } from "#app/.server/db/schema.ts";

export type TermKind = "category" | "author";

/**
 * The slug of a category or an author: accents and case folded, words joined by hyphens ("Vôlei" and "volei" are
 * one), at most 80 characters. A name with nothing readable in it (only emoji, say) still gets a stable slug from its
 * bytes. Keep in step with the copy in migrations/2026-11-25-020-taxonomy.ts.
 */
export function termSlug(text: string): string {
  const slug = foldToSlug(text).slice(0, 80).replace(/-+$/, "");
  return slug || `t-${Buffer.from(text.trim().normalize("NFC"), "utf8").toString("hex").slice(0, 60)}`;
}

/** Whether `slug` could be a term slug at all (anything else is a 404 without a query). */
export function isTermSlug(slug: string): boolean {
  return slug.length <= 123 && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug);
}

/**
 * The spelling shown for `name`'s slug: the first one ever used (recorded now when the slug is new). Two editors
 * typing "Vôlei" and "volei" at the same time both end with the one recorded first.
 */
export async function canonicalTerm(
  db: Kysely<Database> | Transaction<Database>,
  kind: TermKind,
  name: string,
  now: string,
): Promise<{ name: string; slug: string }> {
  // A blank name (only rows written behind the editor's back; it always applies the defaults) has no page.
  if (!name.trim()) return { name, slug: "" };
  const slug = termSlug(name);
  await db
    .insertInto("taxonomy_terms")
    .values({ kind, slug, name, created_at: now })
    .onConflict((oc) => oc.columns(["kind", "slug"]).doNothing())
    .execute();
  const row = await db.selectFrom("taxonomy_terms").select("name").where("kind", "=", kind).where("slug", "=", slug).executeTakeFirst();
  return { name: row?.name ?? name, slug };
}

/** The category and author columns of a news item in their shown spelling, with their slugs. */
export async function canonicalNewsTerms(
  db: Kysely<Database> | Transaction<Database>,
  columns: { category: string; author: string },
  now: string,
): Promise<{ category: string; category_slug: string; author: string; author_slug: string }> {
  const category = await canonicalTerm(db, "category", columns.category, now);
  const author = await canonicalTerm(db, "author", columns.author, now);
  return { category: category.name, category_slug: category.slug, author: author.name, author_slug: author.slug };
}

/**
 * The shown name of a category or author slug, or null when no published news uses it. A term only drafts or
 * scheduled news use answers exactly like one never used: its page must not confirm an embargoed story.
 */
export async function findTermName(db: Kysely<Database>, kind: TermKind, slug: string): Promise<string | null> {
  if (!isTermSlug(slug)) return null;
  const column = kind === "category" ? "news.category_slug" : "news.author_slug";
  const row = await db
    .selectFrom("taxonomy_terms")
    .select("name")
    .where("kind", "=", kind)
    .where("slug", "=", slug)
    .where(({ exists, selectFrom }) =>
      exists(selectFrom("news").select("news.id").whereRef(column, "=", "taxonomy_terms.slug").where("news.status", "=", "published")),
    )
    .executeTakeFirst();
  return row?.name ?? null;
}

/** The categories in use (at least one news item), by name: the news form's suggestions. */
export async function listCategoryNames(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom("taxonomy_terms")
    .select("name")
    .where("kind", "=", "category")
    .where(({ exists, selectFrom }) => exists(selectFrom("news").select("news.id").whereRef("news.category_slug", "=", "taxonomy_terms.slug")))
    .execute();
  return rows.map((row) => row.name).sort((a, b) => a.localeCompare(b, "pt-BR"));
}

/** Category and author slugs with at least one published news item: the sitemap's term pages. */
export async function listTermsInUse(db: Kysely<Database>): Promise<Array<{ kind: TermKind; slug: string }>> {
  const rows = await db
    .selectFrom("taxonomy_terms")
    .select(["kind", "slug"])
    .where(({ or, and, eb, exists, selectFrom }) =>
      or([
        and([
          eb("kind", "=", "category"),
          exists(
            selectFrom("news").select("news.id").whereRef("news.category_slug", "=", "taxonomy_terms.slug").where("news.status", "=", "published"),
          ),
        ]),
        and([
          eb("kind", "=", "author"),
          exists(
            selectFrom("news").select("news.id").whereRef("news.author_slug", "=", "taxonomy_terms.slug").where("news.status", "=", "published"),
          ),
        ]),
      ]),
    )
    .orderBy("kind")
    .orderBy("slug")
    .execute();
  return rows;
}

/** A category readers can reach: its slug, its shown name and how many published news it has. */
export interface SectionRow {
  slug: string;
  name: string;
  count: number;
}

/** The categories with a published story under live coverage now ("AO VIVO" in the section menu). */
export async function listLiveSectionSlugs(db: Kysely<Database>): Promise<Set<string>> {
  const rows = await db
    .selectFrom("news")
    .select("news.category_slug")
    .distinct()
    .where("news.status", "=", "published")
    .where("news.live_coverage", "=", "live")
    .execute();
  return new Set(rows.map((row) => row.category_slug));
}

/**
 * The categories with published news, most news first (ties by name): the section menu and the home's section
 * blocks. Only published news count, as on the term pages: a category only drafts or scheduled news use is never
 * named to readers (it would confirm an embargoed story).
 */
export async function listSectionsByVolume(db: Kysely<Database>): Promise<SectionRow[]> {
  // Counted on the (category_slug, status, …) index, grouped in its order; then the shown names of those slugs.
  const counts = await db
    .selectFrom("news")
    .select((eb) => ["news.category_slug", eb.fn.countAll<number | string>().as("n")])
    .where("news.status", "=", "published")
    .where("news.category_slug", "!=", "")
    .groupBy("news.category_slug")
    .execute();
  if (counts.length === 0) return [];
  const names = new Map<string, string>();
  const slugs = counts.map((row) => row.category_slug);
  for (let i = 0; i < slugs.length; i += 500) {
    const rows = await db
      .selectFrom("taxonomy_terms")
      .select(["slug", "name"])
      .where("kind", "=", "category")
      .where("slug", "in", slugs.slice(i, i + 500))
      .execute();
    for (const row of rows) names.set(row.slug, row.name);
  }
  return counts
    .flatMap((row) => {
      const name = names.get(row.category_slug);
      return name === undefined ? [] : [{ slug: row.category_slug, name, count: Number(row.n) }];
    })
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, "pt-BR"));
}

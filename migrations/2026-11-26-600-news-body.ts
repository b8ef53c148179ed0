import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * News bodies become structured content: a `body` column (ProseMirror JSON, see app/lib/rich-text.ts) on news and
 * news_revisions, filled from the plain text every item and revision had, by the rule that text followed (a blank
 * line separates paragraphs, a single line break stays a line break). `full_content` stays, as the body's plain
 * text (search, summaries, the revision diff read it), so `down` only drops the new column: the text is all there,
 * the formatting added since is what goes.
 */

const PAGE = 500;

/** Frozen copy of plainTextToDoc (app/lib/rich-text.ts) as it was when this migration was written. */
function plainTextToDoc(text: string) {
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "");
  return {
    type: "doc",
    content: paragraphs.map((paragraph) => {
      const content: Array<{ type: string; text?: string }> = [];
      paragraph.split("\n").forEach((line, index) => {
        if (index > 0) content.push({ type: "hardBreak" });
        if (line !== "") content.push({ type: "text", text: line });
      });
      return { type: "paragraph", content };
    }),
  };
}

/** Fills `body` for every row of `table` that has none, a page at a time (keyset on id). */
async function fill(db: Kysely<any>, table: "news" | "news_revisions") {
  let after = "";
  for (;;) {
    const rows: Array<{ id: string; full_content: string }> = await db
      .selectFrom(table)
      .select(["id", "full_content"])
      .where("id", ">", after)
      .where("body", "is", null)
      .orderBy("id")
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return;
    for (const row of rows) {
      await db
        .updateTable(table)
        .set({ body: JSON.stringify(plainTextToDoc(row.full_content)) })
        .where("id", "=", row.id)
        .execute();
    }
    after = rows[rows.length - 1]!.id;
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("news").addColumn("body", "text").execute();
  await db.schema.alterTable("news_revisions").addColumn("body", "text").execute();
  await fill(db, "news");
  await fill(db, "news_revisions");
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("news_revisions").dropColumn("body").execute();
  await db.schema.alterTable("news").dropColumn("body").execute();
}

import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. The indexes are portable; the search index is
// SQLite only (PostgreSQL's `search_document` column covers every status already; readers' query filters on status).

/**
 * The newsroom's list (/redacao) at thousands of stories:
 *
 * - Sorted by the last update: (updated_at, id) for every status, (status, updated_at, id) for one; sorted by
 *   publication the existing (published_at, id) and (status, published_at, id) serve it.
 * - A category's or an author's stories of every status, newest first: (category_slug, published_at, id) and
 *   (author_slug, published_at, id) (the existing ones start with the status, which "every status" does not fix).
 * - SQLite search over drafts and scheduled stories: `news_fts` holds published stories only (readers search it;
 *   migration 2026-11-26-500), so a second contentless FTS table, `news_fts_newsroom`, holds the others, with the
 *   same doc numbers (`news_search_docs`). The triggers keep a story in exactly one of the two, following its status;
 *   only the newsroom's query reads the second one. They are the same three triggers, rewritten, so the order of the
 *   statements (the doc number first) does not depend on the order SQLite runs separate triggers in.
 */
const TRIGGERS = ["news_search_insert", "news_search_update", "news_search_delete"];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("news_updated_at_idx").on("news").columns(["updated_at", "id"]).execute();
  await db.schema.createIndex("news_status_updated_at_idx").on("news").columns(["status", "updated_at", "id"]).execute();
  await db.schema.createIndex("news_category_published_at_idx").on("news").columns(["category_slug", "published_at", "id"]).execute();
  await db.schema.createIndex("news_author_published_at_idx").on("news").columns(["author_slug", "published_at", "id"]).execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;

  await sql`create virtual table news_fts_newsroom using fts5(
    title, subtitle, body,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
  )`.execute(db);
  for (const trigger of TRIGGERS) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  await sql`create trigger news_search_insert after insert on news begin
    insert into news_search_docs (news_id) values (new.id);
    insert into news_fts (rowid, title, subtitle, body)
      select doc, eef_search_text(new.title), eef_search_text(new.subtitle), eef_search_text(new.full_content)
      from news_search_docs where news_id = new.id and new.status = 'published';
    insert into news_fts_newsroom (rowid, title, subtitle, body)
      select doc, eef_search_text(new.title), eef_search_text(new.subtitle), eef_search_text(new.full_content)
      from news_search_docs where news_id = new.id and new.status <> 'published';
  end`.execute(db);
  await sql`create trigger news_search_update after update of id, title, subtitle, full_content, status on news begin
    update news_search_docs set news_id = new.id where news_id = old.id;
    delete from news_fts where rowid = (select doc from news_search_docs where news_id = new.id);
    delete from news_fts_newsroom where rowid = (select doc from news_search_docs where news_id = new.id);
    insert into news_fts (rowid, title, subtitle, body)
      select doc, eef_search_text(new.title), eef_search_text(new.subtitle), eef_search_text(new.full_content)
      from news_search_docs where news_id = new.id and new.status = 'published';
    insert into news_fts_newsroom (rowid, title, subtitle, body)
      select doc, eef_search_text(new.title), eef_search_text(new.subtitle), eef_search_text(new.full_content)
      from news_search_docs where news_id = new.id and new.status <> 'published';
  end`.execute(db);
  await sql`create trigger news_search_delete after delete on news begin
    delete from news_fts where rowid = (select doc from news_search_docs where news_id = old.id);
    delete from news_fts_newsroom where rowid = (select doc from news_search_docs where news_id = old.id);
    delete from news_search_docs where news_id = old.id;
  end`.execute(db);
  await sql`insert into news_fts_newsroom (rowid, title, subtitle, body)
    select d.doc, eef_search_text(n.title), eef_search_text(n.subtitle), eef_search_text(n.full_content)
    from news n join news_search_docs d on d.news_id = n.id where n.status <> 'published'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    for (const trigger of TRIGGERS) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
    // The triggers of 2026-11-26-500-search-published-only.
    await sql`create trigger news_search_insert after insert on news begin
      insert into news_search_docs (news_id) values (new.id);
      insert into news_fts (rowid, title, subtitle, body)
        select doc, eef_search_text(new.title), eef_search_text(new.subtitle), eef_search_text(new.full_content)
        from news_search_docs where news_id = new.id and new.status = 'published';
    end`.execute(db);
    await sql`create trigger news_search_update after update of id, title, subtitle, full_content, status on news begin
      update news_search_docs set news_id = new.id where news_id = old.id;
      delete from news_fts where rowid = (select doc from news_search_docs where news_id = new.id);
      insert into news_fts (rowid, title, subtitle, body)
        select doc, eef_search_text(new.title), eef_search_text(new.subtitle), eef_search_text(new.full_content)
        from news_search_docs where news_id = new.id and new.status = 'published';
    end`.execute(db);
    await sql`create trigger news_search_delete after delete on news begin
      delete from news_fts where rowid = (select doc from news_search_docs where news_id = old.id);
      delete from news_search_docs where news_id = old.id;
    end`.execute(db);
    await sql`drop table if exists news_fts_newsroom`.execute(db);
  }
  await db.schema.dropIndex("news_author_published_at_idx").execute();
  await db.schema.dropIndex("news_category_published_at_idx").execute();
  await db.schema.dropIndex("news_status_updated_at_idx").execute();
  await db.schema.dropIndex("news_updated_at_idx").execute();
}

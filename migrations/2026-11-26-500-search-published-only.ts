import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. SQLite only (PostgreSQL filters by status in the
// ranked query itself: `where search_document @@ q and status = 'published'`).

/**
 * The SQLite search index holds published news only. Search ranks inside the FTS table and joins only the page it
 * shows (docs/decisions/005-search.md): with drafts and scheduled news in the index they took rank slots and were
 * dropped afterwards, so a page showed fewer than 24 results, offered a "next page" with nothing on it, and a reader
 * could tell an embargoed story's words were there. The triggers now index a row only while its status is
 * 'published' and follow status changes (publishing, the scheduler's flip, back to draft); the rows of drafts and
 * scheduled news leave the index here. `news_search_docs` keeps one doc number per news id, whatever its status, so
 * a story keeps its place in the tie order when it is published.
 */
const TRIGGERS = ["news_search_insert", "news_search_update", "news_search_delete"];

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const trigger of TRIGGERS) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
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
  await sql`delete from news_fts where rowid in (
    select d.doc from news_search_docs d join news n on n.id = d.news_id where n.status <> 'published'
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const trigger of TRIGGERS) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  // The triggers of 2026-11-24-001-news-search: every row indexed, whatever its status.
  await sql`create trigger news_search_insert after insert on news begin
    insert into news_search_docs (news_id) values (new.id);
    insert into news_fts (rowid, title, subtitle, body) values (
      (select doc from news_search_docs where news_id = new.id),
      eef_search_text(new.title), eef_search_text(new.subtitle), eef_search_text(new.full_content));
  end`.execute(db);
  await sql`create trigger news_search_update after update of id, title, subtitle, full_content on news begin
    update news_search_docs set news_id = new.id where news_id = old.id;
    delete from news_fts where rowid = (select doc from news_search_docs where news_id = new.id);
    insert into news_fts (rowid, title, subtitle, body) values (
      (select doc from news_search_docs where news_id = new.id),
      eef_search_text(new.title), eef_search_text(new.subtitle), eef_search_text(new.full_content));
  end`.execute(db);
  await sql`create trigger news_search_delete after delete on news begin
    delete from news_fts where rowid = (select doc from news_search_docs where news_id = old.id);
    delete from news_search_docs where news_id = old.id;
  end`.execute(db);
  await sql`insert into news_fts (rowid, title, subtitle, body)
    select d.doc, eef_search_text(n.title), eef_search_text(n.subtitle), eef_search_text(n.full_content)
    from news n join news_search_docs d on d.news_id = n.id where n.status <> 'published'`.execute(db);
}

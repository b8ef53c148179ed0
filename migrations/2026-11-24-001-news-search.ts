import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Dialect-specific SQL here (full-text search is not
// portable): SQLite gets an FTS5 index kept by triggers, PostgreSQL a generated tsvector column with a GIN index.

/**
 * Full-text search over the news (title, subtitle, full text), accent-insensitive and stemmed in Portuguese.
 * See docs/decisions/005-search.md. Both indexes are filled here from the existing rows and kept in sync by the
 * database itself on every insert, update and delete, whoever writes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await upPostgres(db);
  else await upSqlite(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop index if exists news_search_idx`.execute(db);
    await sql`alter table news drop column if exists search_document`.execute(db);
    await sql`drop function if exists eef_search_normalize(text)`.execute(db);
    return;
  }
  for (const trigger of ["news_search_insert", "news_search_update", "news_search_delete"]) {
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  }
  await sql`drop table if exists news_fts`.execute(db);
  await sql`drop table if exists news_search_docs`.execute(db);
}

/**
 * SQLite: FTS5 has no Portuguese stemmer, so the index stores stems, not words: `eef_search_text(text)` (a function
 * every connection of the application registers, see app/.server/search/portuguese.ts) folds accents and stems each
 * word. The FTS table is contentless (nothing stored twice) with `contentless_delete` so rows can be removed by
 * rowid. Its rowids come from `news_search_docs` (an INTEGER PRIMARY KEY, kept by VACUUM), one per news id:
 * the news table's own rowid is not stable (VACUUM may renumber it).
 */
async function upSqlite(db: Kysely<any>): Promise<void> {
  try {
    await sql`select eef_search_text('teste') as probe`.execute(db);
  } catch (error) {
    throw new Error("A função SQL eef_search_text não está registrada nesta conexão (abra o banco com openDatabase).", {
      cause: error,
    });
  }
  await sql`create table news_search_docs (doc integer primary key, news_id text not null unique)`.execute(db);
  await sql`create virtual table news_fts using fts5(
    title, subtitle, body,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`insert into news_search_docs (news_id) select id from news order by created_at, id`.execute(db);
  await sql`insert into news_fts (rowid, title, subtitle, body)
    select d.doc, eef_search_text(n.title), eef_search_text(n.subtitle), eef_search_text(n.full_content)
    from news n join news_search_docs d on d.news_id = n.id`.execute(db);
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
}

/**
 * PostgreSQL: the `portuguese` configuration (Snowball stop words and stemmer) over text first passed through
 * `eef_search_normalize`: `unaccent`, lower case, and a final "s" after a consonant dropped ("gols" → "gol", a
 * plural Snowball leaves alone). `unaccent` is only STABLE (it reads its dictionary), so an IMMUTABLE wrapper naming
 * the dictionary with its schema is what a generated column may use. Title, subtitle and full text carry weights
 * A, B and C for ts_rank.
 */
async function upPostgres(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists unaccent`.execute(db);
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'
  `.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error("A extensão unaccent não foi instalada.");
  const unaccent = `${quoteIdent(schema)}.unaccent`;
  const dictionary = `${quoteIdent(schema)}.unaccent`.replaceAll("'", "''");
  await sql
    .raw(
      `create or replace function eef_search_normalize(input text) returns text
      language sql immutable strict parallel safe
      as $fn$ select pg_catalog.regexp_replace(pg_catalog.lower(${unaccent}('${dictionary}'::pg_catalog.regdictionary, input)), '([bcdfghjklmnpqrtvwxz])s\\M', '\\1', 'g') $fn$`,
    )
    .execute(db);
  // Computed for every existing row as the column is added.
  await sql`alter table news add column search_document tsvector generated always as (
    setweight(to_tsvector('portuguese'::regconfig, eef_search_normalize(title)), 'A') ||
    setweight(to_tsvector('portuguese'::regconfig, eef_search_normalize(subtitle)), 'B') ||
    setweight(to_tsvector('portuguese'::regconfig, eef_search_normalize(full_content)), 'C')
  ) stored`.execute(db);
  await sql`create index news_search_idx on news using gin (search_document)`.execute(db);
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Dialect-specific SQL (full-text search and trigram
// matching are not portable); see docs/decisions/016-search-that-forgives.md.

/**
 * Search that forgives:
 *
 * 1. **The section is searched.** A story's category joins its search document (SQLite: a fourth FTS5 column,
 *    `section`; PostgreSQL: weight B of `search_document`), so "mma" or "fórmula 1" find the stories of the MMA and
 *    Fórmula 1 sections even when their text never names them.
 * 2. **A vocabulary for typos.** `search_words` holds the folded words (letters only, 4 to 32 of them) of every
 *    story's title, subtitle and category *at a time it was published*: a draft's words never enter it. Words are
 *    never removed (a word whose stories left only leads to a correction that finds nothing, and then none is
 *    offered). A word typed that is not in it is matched by trigram similarity: PostgreSQL's `pg_trgm` (a GIN
 *    trigram index on the words), SQLite's FTS5 `trigram` tokenizer (candidates sharing a trigram, ranked by the same
 *    similarity in app/.server/search/portuguese.ts).
 *
 * Both are kept by the database itself on every insert and update, whoever writes (triggers).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await upPostgres(db);
  else await upSqlite(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger if exists news_search_words on news`.execute(db);
    await sql`drop function if exists eef_search_words_collect()`.execute(db);
    await sql`drop function if exists eef_search_words(text)`.execute(db);
    await sql`drop table if exists search_words`.execute(db);
    await sql`alter table news drop column search_document`.execute(db);
    await sql`alter table news add column search_document tsvector generated always as (
      setweight(to_tsvector('portuguese'::regconfig, eef_search_normalize(title)), 'A') ||
      setweight(to_tsvector('portuguese'::regconfig, eef_search_normalize(subtitle)), 'B') ||
      setweight(to_tsvector('portuguese'::regconfig, eef_search_normalize(full_content)), 'C')
    ) stored`.execute(db);
    await sql`create index news_search_idx on news using gin (search_document)`.execute(db);
    return;
  }
  for (const trigger of [...SQLITE_TRIGGERS, ...SQLITE_WORD_TRIGGERS]) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  await sql`drop table if exists search_word_trigrams`.execute(db);
  await sql`drop table if exists search_words`.execute(db);
  await createSqliteIndexes(db, ["title", "subtitle", "body"]);
}

const SQLITE_TRIGGERS = ["news_search_insert", "news_search_update", "news_search_delete"];
const SQLITE_WORD_TRIGGERS = ["news_search_words_insert", "news_search_words_update", "search_words_trigrams_insert"];

/**
 * SQLite: the two contentless FTS5 tables (readers' `news_fts`, published stories; the newsroom's `news_fts_newsroom`,
 * the others; migration 2026-11-27-200) rebuilt with `columns`, refilled, and their three triggers rewritten with
 * them. `section` is the category's stems.
 */
async function createSqliteIndexes(db: Kysely<any>, columns: string[]): Promise<void> {
  const withSection = columns.includes("section");
  for (const trigger of SQLITE_TRIGGERS) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  const list = sql.raw(columns.join(", "));
  for (const table of ["news_fts", "news_fts_newsroom"]) {
    await sql`drop table if exists ${sql.id(table)}`.execute(db);
    await sql`create virtual table ${sql.id(table)} using fts5(
      ${list},
      content = '', contentless_delete = 1,
      tokenize = 'unicode61 remove_diacritics 2'
    )`.execute(db);
  }
  const values = (row: "new" | "n") =>
    sql.raw(
      [
        `eef_search_text(${row}.title)`,
        `eef_search_text(${row}.subtitle)`,
        `eef_search_text(${row}.full_content)`,
        ...(withSection ? [`eef_search_text(${row}.category)`] : []),
      ].join(", "),
    );
  const watched = sql.raw(`id, title, subtitle, full_content, status${withSection ? ", category" : ""}`);
  await sql`create trigger news_search_insert after insert on news begin
    insert into news_search_docs (news_id) values (new.id);
    insert into news_fts (rowid, ${list})
      select doc, ${values("new")} from news_search_docs where news_id = new.id and new.status = 'published';
    insert into news_fts_newsroom (rowid, ${list})
      select doc, ${values("new")} from news_search_docs where news_id = new.id and new.status <> 'published';
  end`.execute(db);
  await sql`create trigger news_search_update after update of ${watched} on news begin
    update news_search_docs set news_id = new.id where news_id = old.id;
    delete from news_fts where rowid = (select doc from news_search_docs where news_id = new.id);
    delete from news_fts_newsroom where rowid = (select doc from news_search_docs where news_id = new.id);
    insert into news_fts (rowid, ${list})
      select doc, ${values("new")} from news_search_docs where news_id = new.id and new.status = 'published';
    insert into news_fts_newsroom (rowid, ${list})
      select doc, ${values("new")} from news_search_docs where news_id = new.id and new.status <> 'published';
  end`.execute(db);
  await sql`create trigger news_search_delete after delete on news begin
    delete from news_fts where rowid = (select doc from news_search_docs where news_id = old.id);
    delete from news_fts_newsroom where rowid = (select doc from news_search_docs where news_id = old.id);
    delete from news_search_docs where news_id = old.id;
  end`.execute(db);
  await sql`insert into news_fts (rowid, ${list})
    select d.doc, ${values("n")} from news n join news_search_docs d on d.news_id = n.id
    where n.status = 'published' order by d.doc`.execute(db);
  await sql`insert into news_fts_newsroom (rowid, ${list})
    select d.doc, ${values("n")} from news n join news_search_docs d on d.news_id = n.id
    where n.status <> 'published' order by d.doc`.execute(db);
}

/**
 * SQLite's vocabulary: `search_words` (one row per word) and `search_word_trigrams`, an FTS5 index with the
 * `trigram` tokenizer over it (external content: the words are stored once). `eef_search_words(text)` (registered by
 * every connection, app/.server/db/database.server.ts) gives a text's words as a JSON array.
 */
async function upSqlite(db: Kysely<any>): Promise<void> {
  try {
    await sql`select eef_search_words('teste') as probe`.execute(db);
  } catch (error) {
    throw new Error("A função SQL eef_search_words não está registrada nesta conexão (abra o banco com openDatabase).", {
      cause: error,
    });
  }
  await createSqliteIndexes(db, ["title", "subtitle", "body", "section"]);
  await sql`create table search_words (id integer primary key, word text not null unique)`.execute(db);
  await sql`create virtual table search_word_trigrams using fts5(
    word, content = 'search_words', content_rowid = 'id', tokenize = 'trigram'
  )`.execute(db);
  await sql`create trigger search_words_trigrams_insert after insert on search_words begin
    insert into search_word_trigrams (rowid, word) values (new.id, new.word);
  end`.execute(db);
  const words = sql.raw("json_each(eef_search_words(new.title || ' ' || new.subtitle || ' ' || new.category))");
  await sql`create trigger news_search_words_insert after insert on news when new.status = 'published' begin
    insert or ignore into search_words (word) select value from ${words};
  end`.execute(db);
  await sql`create trigger news_search_words_update after update of title, subtitle, category, status on news
  when new.status = 'published' begin
    insert or ignore into search_words (word) select value from ${words};
  end`.execute(db);
  await sql`insert or ignore into search_words (word)
    select j.value from news n, json_each(eef_search_words(n.title || ' ' || n.subtitle || ' ' || n.category)) j
    where n.status = 'published'`.execute(db);
}

/**
 * PostgreSQL: `search_document` computed again with the category (weight B, as the subtitle), and the vocabulary
 * with a trigram index (`pg_trgm`, in PostgreSQL's contrib like `unaccent`). The words are computed in SQL the way
 * the application folds them: `unaccent`, lower case, split on anything but letters and digits, words with a digit
 * left out. They are inserted in alphabetical order so two saves adding the same words never wait on each other in
 * opposite orders (a deadlock).
 */
async function upPostgres(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`alter table news drop column search_document`.execute(db);
  await sql`alter table news add column search_document tsvector generated always as (
    setweight(to_tsvector('portuguese'::regconfig, eef_search_normalize(title)), 'A') ||
    setweight(to_tsvector('portuguese'::regconfig, eef_search_normalize(subtitle)), 'B') ||
    setweight(to_tsvector('portuguese'::regconfig, eef_search_normalize(category)), 'B') ||
    setweight(to_tsvector('portuguese'::regconfig, eef_search_normalize(full_content)), 'C')
  ) stored`.execute(db);
  await sql`create index news_search_idx on news using gin (search_document)`.execute(db);

  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'
  `.execute(db);
  const trgmSchema = rows[0]?.schema;
  if (!trgmSchema) throw new Error("A extensão pg_trgm não foi instalada.");
  await sql`create table search_words (word text primary key)`.execute(db);
  await sql`create index search_words_trgm_idx on search_words using gin (word ${sql.raw(`${quoteIdent(trgmSchema)}.gin_trgm_ops`)})`.execute(db);
  // eef_search_normalize (2026-11-24-001) is unaccent and lower case, plus a plural rule the vocabulary does not
  // want: the words are taken from the unaccented, lower-cased text directly.
  const { rows: unaccentRows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'
  `.execute(db);
  const unaccentSchema = unaccentRows[0]?.schema;
  if (!unaccentSchema) throw new Error("A extensão unaccent não foi instalada.");
  const unaccent = `${quoteIdent(unaccentSchema)}.unaccent`;
  const dictionary = unaccent.replaceAll("'", "''");
  await sql
    .raw(
      `create or replace function eef_search_words(input text) returns setof text
      language sql stable strict parallel safe
      as $fn$
        select distinct w from pg_catalog.regexp_split_to_table(pg_catalog.lower(${unaccent}('${dictionary}'::pg_catalog.regdictionary, input)), '[^[:alnum:]]+') w
        where pg_catalog.length(w) between 4 and 32 and w !~ '[^[:alpha:]]'
        order by w
      $fn$`,
    )
    .execute(db);
  await sql`create or replace function eef_search_words_collect() returns trigger language plpgsql as $fn$
    begin
      if new.status = 'published' then
        insert into search_words (word)
          select w from eef_search_words(new.title || ' ' || new.subtitle || ' ' || new.category) w order by w
          on conflict do nothing;
      end if;
      return null;
    end
  $fn$`.execute(db);
  await sql`create trigger news_search_words after insert or update of title, subtitle, category, status on news
    for each row execute function eef_search_words_collect()`.execute(db);
  await sql`insert into search_words (word)
    select distinct w from news n, eef_search_words(n.title || ' ' || n.subtitle || ' ' || n.category) w
    where n.status = 'published' order by w on conflict do nothing`.execute(db);
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

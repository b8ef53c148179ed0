/**
 * Looking at and changing a running site's data behind the server's back: its services opened on the same data
 * directory, portable SQL (see site-database.ts), row counts, media keys, a deliberately broken table.
 */
import { DatabaseSync } from "node:sqlite";
import type { AppServices } from "#app/.server/app.server.ts";
import { SITE_EVENTS_CHANNEL } from "#app/.server/events/postgres-event-bus.server.ts";
import { createTestServices } from "./services.ts";
import type { RunningSite } from "./site.ts";
import { siteQuery } from "./site-database.ts";

/**
 * Runs `fn` with the app's services opened on a running site's database (same DATA_DIR, same auth secret), e.g. to
 * grant admin rights with runAdminCli while the server runs.
 */
export async function withSiteServices<T>(
  site: RunningSite,
  fn: (services: AppServices) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const services = await createTestServices(site.dataDir, { ...(site.databaseUrl ? { DATABASE_URL: site.databaseUrl } : {}), ...env });
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}

/**
 * Runs SQL on a running site's database behind the server's back (e.g. removing an admins row only). Portable SQL
 * only (SQLite and PostgreSQL): see site-database.ts.
 */
export async function runSql(site: RunningSite, statement: string, ...params: Array<string | number | null>): Promise<void> {
  await siteQuery(site, statement, ...params);
}

/** Counts rows of a table of a running site. */
export async function countRows(site: RunningSite, table: "news" | "sponsors" | "media"): Promise<number> {
  const [row] = await siteQuery<{ n: number | string }>(site, `SELECT COUNT(*) AS n FROM ${table}`);
  return Number(row?.n ?? 0);
}

/**
 * Drops the `news` table behind the running server's back, so every news query fails from now on (on PostgreSQL
 * with CASCADE, which also drops the foreign keys that point at it).
 */
export async function breakNewsTable(site: RunningSite): Promise<void> {
  if (site.databaseUrl) {
    await siteQuery(site, "DROP TABLE news CASCADE");
    // As any other writer does, so the site stops serving what it keeps in memory (SQLite's servers notice alone).
    await siteQuery(site, `SELECT pg_notify('${SITE_EVENTS_CHANNEL}', 'resync')`);
    return;
  }
  const db = new DatabaseSync(site.dbFile, { timeout: 5000 });
  try {
    db.exec("PRAGMA foreign_keys = OFF");
    db.exec("DROP TABLE news");
  } finally {
    db.close();
  }
}

/** The media keys (paths under DATA_DIR/media) of a news item's image: main file and every variant. */
export async function mediaKeysOf(site: RunningSite, newsId: string): Promise<string[]> {
  const [row] = await siteQuery<{ key: string; variants: string }>(
    site,
    "SELECT media.key AS key, media.variants AS variants FROM news JOIN media ON media.id = news.media_id WHERE news.id = ?",
    newsId,
  );
  if (!row) throw new Error(`Notícia ${newsId} sem mídia`);
  const variants = JSON.parse(row.variants) as Array<{ key: string }>;
  return [...new Set([row.key, ...variants.map((variant) => variant.key)])];
}

import { type Kysely, sql } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * Sign-in now requires a verified e-mail. Accounts that are already admins were vouched for by the operator (who
 * ran the admin command for them): mark them verified so they are not locked out. Better Auth's tables are created
 * before ours (see migrateAll); a database without them (our migrations run alone) has nothing to mark.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const tables = await db.introspection.getTables();
  if (!tables.some((table) => table.name === "user")) return;
  await sql`update "user" set "emailVerified" = ${sql.lit(true)} where "id" in (select "user_id" from "admins")`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to undo: whether an address was verified before cannot be known.
}

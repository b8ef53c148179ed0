import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * `admins.publishes_without_review`: the "publica sem revisão" right an admin gives a trusted reporter (1: they
 * publish and schedule their own stories directly, as an editor would; 0: their stories go through review). Editors
 * and admins publish anyway, whatever it says. Every existing account gets 0: nobody's rights change.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("admins")
    .addColumn("publishes_without_review", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("admins").dropColumn("publishes_without_review").execute();
}

import type { Kysely, Transaction } from "kysely";
import type { Role } from "#app/lib/roles.ts";
import type { Database } from "#app/.server/db/schema.ts";

/**
 * The site never loses its last admin: neither /equipe (team.server.ts) nor `npm run admin -- role` / `revoke`
 * (admin-cli.server.ts) demote or revoke the only account with the admin role. Both check and change under
 * `withAdminsLocked`, so two changes at once cannot each see "another admin remains".
 */

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Runs `change` with every admin row locked (PostgreSQL; SQLite writes one at a time anyway), so two admins demoting
 * each other at once cannot leave the site with none.
 */
export function withAdminsLocked<T>(
  db: Kysely<Database>,
  dialect: "sqlite" | "postgres",
  change: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (dialect === "postgres") await trx.selectFrom("admins").select("user_id").where("role", "=", "admin").forUpdate().execute();
    return change(trx);
  });
}

/** How many admins there are besides `userId`. */
export async function otherAdmins(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom("admins")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("role", "=", "admin")
    .where("user_id", "<>", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether moving `userId` from `current` to `next` (null: no role) would leave the site without an admin. */
export async function leavesNoAdmin(db: Db, userId: string, current: Role | null, next: Role | null): Promise<boolean> {
  return current === "admin" && next !== "admin" && (await otherAdmins(db, userId)) === 0;
}

import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.server.ts";

export interface AdminListing {
  userId: string;
  email: string | null;
  name: string | null;
  grantedAt: string;
}

/** Who is an administrator: a user whose id is in the `admins` table. */
export function createAdminService({ db, log, clock = () => new Date() }: { db: Kysely<Database>; log: Logger; clock?: () => Date }) {
  return {
    /** Whether `userId` is an admin. A failure of the check counts as "not admin" (and is logged). */
    async isAdmin(userId: string | null | undefined): Promise<boolean> {
      if (!userId) return false;
      try {
        const row = await db.selectFrom("admins").select("user_id").where("user_id", "=", userId).executeTakeFirst();
        return Boolean(row);
      } catch (error) {
        log.error({ err: error }, "admin check failed; treating as not admin");
        return false;
      }
    },

    /** The user with this id or e-mail (case-insensitive), or undefined. */
    async findUser(idOrEmail: string) {
      const value = idOrEmail.trim();
      const row = await db
        .selectFrom("user")
        .select(["id", "email", "name", "emailVerified", "createdAt"])
        .where((eb) => eb.or([eb("id", "=", value), eb(eb.fn("lower", ["email"]), "=", value.toLowerCase())]))
        .executeTakeFirst();
      if (!row) return undefined;
      // 0/1 on SQLite, true/false on PostgreSQL; dates are text on SQLite and Date objects on PostgreSQL.
      const createdAt = row.createdAt as unknown;
      return {
        ...row,
        emailVerified: Boolean(row.emailVerified),
        createdAt: createdAt instanceof Date ? createdAt.toISOString() : String(createdAt),
      };
    },

    /** Ends every session of `userId`; returns how many there were. */
    async endSessions(userId: string): Promise<number> {
      const result = await db.deleteFrom("session").where("userId", "=", userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Makes `userId` an admin (idempotent). */
    async grant(userId: string): Promise<void> {
      await db
        .insertInto("admins")
        .values({ user_id: userId, created_at: clock().toISOString() })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .execute();
    },

    /** Removes admin rights and ends the user's sessions. Returns whether they were an admin. */
    async revoke(userId: string): Promise<boolean> {
      const result = await db.deleteFrom("admins").where("user_id", "=", userId).executeTakeFirst();
      await db.deleteFrom("session").where("userId", "=", userId).execute();
      return Number(result.numDeletedRows) > 0;
    },

    async list(): Promise<AdminListing[]> {
      const rows = await db
        .selectFrom("admins")
        .leftJoin("user", "user.id", "admins.user_id")
        .select(["admins.user_id", "admins.created_at", "user.email", "user.name"])
        .orderBy("admins.created_at", "asc")
        .execute();
      return rows.map((row) => ({ userId: row.user_id, email: row.email, name: row.name, grantedAt: row.created_at }));
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;

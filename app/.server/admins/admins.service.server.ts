import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.server.ts";
import { isRole, type Role } from "../../lib/roles.ts";

export interface AdminListing {
  userId: string;
  email: string | null;
  name: string | null;
  role: Role;
  grantedAt: string;
}

/**
 * Who is in the newsroom and with which role (app/lib/roles.ts): a user whose id is in the `admins` table, with the
 * role of that row. No row: no role (not part of the newsroom).
 */
export function createAdminService({ db, log, clock = () => new Date() }: { db: Kysely<Database>; log: Logger; clock?: () => Date }) {
  /** The role of `userId`, or null (no role). A failure of the check counts as "no role" (and is logged). */
  async function roleOf(userId: string | null | undefined): Promise<Role | null> {
    if (!userId) return null;
    try {
      const row = await db.selectFrom("admins").select("role").where("user_id", "=", userId).executeTakeFirst();
      // A value this code does not know (written by hand) grants nothing.
      return row && isRole(row.role) ? row.role : null;
    } catch (error) {
      log.error({ err: error }, "role check failed; treating as no role");
      return null;
    }
  }

  return {
    roleOf,

    /** Whether `userId` has the admin role (not only a newsroom role). */
    async isAdmin(userId: string | null | undefined): Promise<boolean> {
      return (await roleOf(userId)) === "admin";
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

    /** Gives `userId` a role in the newsroom (admin unless said); an account that already has one keeps it. */
    async grant(userId: string, role: Role = "admin"): Promise<void> {
      await db
        .insertInto("admins")
        .values({ user_id: userId, created_at: clock().toISOString(), role })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .execute();
    },

    /** Changes the role of an account that has one; false when it has none (nothing changed). */
    async setRole(userId: string, role: Role): Promise<boolean> {
      const result = await db.updateTable("admins").set({ role }).where("user_id", "=", userId).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Removes the account's role (any) and ends its sessions. Returns whether it had one. */
    async revoke(userId: string): Promise<boolean> {
      const result = await db.deleteFrom("admins").where("user_id", "=", userId).executeTakeFirst();
      await db.deleteFrom("session").where("userId", "=", userId).execute();
      return Number(result.numDeletedRows) > 0;
    },

    async list(): Promise<AdminListing[]> {
      const rows = await db
        .selectFrom("admins")
        .leftJoin("user", "user.id", "admins.user_id")
        .select(["admins.user_id", "admins.created_at", "admins.role", "user.email", "user.name"])
        .orderBy("admins.created_at", "asc")
        .execute();
      return rows.map((row) => ({ userId: row.user_id, email: row.email, name: row.name, role: row.role, grantedAt: row.created_at }));
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;

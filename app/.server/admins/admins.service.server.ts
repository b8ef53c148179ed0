import type { Kysely } from "kysely";
import type { Database } from "#app/.server/db/schema.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { isRole, type Role } from "#app/lib/roles.ts";
import {
  deleteMemberRole,
  deleteSessionsOf,
  findMemberRole,
  findUserByIdOrEmail,
  insertMemberIfAbsent,
  listRoles,
  setMemberRole,
} from "./team.queries.server.ts";

export interface AdminListing {
  userId: string;
  email: string | null;
  name: string | null;
  role: Role;
  grantedAt: string;
}

/**
 * Who is in the newsroom and with which role (app/lib/roles.ts): a user whose id is in the `admins` table, with the
 * role of that row. No row: no role (not part of the newsroom). The queries are in team.queries.server.ts.
 */
export function createAdminService({ db, log, clock = () => new Date() }: { db: Kysely<Database>; log: Logger; clock?: () => Date }) {
  /** The role of `userId`, or null (no role). A failure of the check counts as "no role" (and is logged). */
  async function roleOf(userId: string | null | undefined): Promise<Role | null> {
    if (!userId) return null;
    try {
      const role = await findMemberRole(db, userId);
      // A value this code does not know (written by hand) grants nothing.
      return isRole(role) ? role : null;
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
      const row = await findUserByIdOrEmail(db, idOrEmail.trim());
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
    endSessions(userId: string): Promise<number> {
      return deleteSessionsOf(db, userId);
    },

    /** Gives `userId` a role in the newsroom (admin unless said); an account that already has one keeps it. */
    async grant(userId: string, role: Role = "admin"): Promise<void> {
      await insertMemberIfAbsent(db, { userId, role, createdAt: clock().toISOString() });
    },

    /** Changes the role of an account that has one; false when it has none (nothing changed). */
    setRole(userId: string, role: Role): Promise<boolean> {
      return setMemberRole(db, userId, role);
    },

    /** Removes the account's role (any) and ends its sessions. Returns whether it had one. */
    async revoke(userId: string): Promise<boolean> {
      const had = await deleteMemberRole(db, userId);
      await deleteSessionsOf(db, userId);
      return had;
    },

    async list(): Promise<AdminListing[]> {
      const rows = await listRoles(db);
      return rows.map((row) => ({ userId: row.user_id, email: row.email, name: row.name, role: row.role, grantedAt: row.created_at }));
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;

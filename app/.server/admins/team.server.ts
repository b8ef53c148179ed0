import type { Kysely, Transaction } from "kysely";
import { t } from "#app/i18n/newsroom.ts";
import { plainEmailAddress } from "#app/lib/email-address.ts";
import { INVITE_TTL_SECONDS } from "#app/lib/limits.ts";
import { isRole, type Role } from "#app/lib/roles.ts";
import type { AppConfig } from "#app/.server/config/env.server.ts";
import type { Database } from "#app/.server/db/schema.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import type { Mailer } from "#app/.server/mail/mailer.server.ts";
import { createVerifiedAccount, unknowablePassword } from "#app/.server/auth/accounts.server.ts";
import { createInviteToken, type LazyBetterAuth, RESET_PASSWORD_PATH } from "#app/.server/auth/auth.server.ts";
import { leavesNoAdmin, withAdminsLocked } from "./last-admin.server.ts";
import { clearOwnershipCheck, requestOwnershipProof } from "./ownership.server.ts";
import {
  type ChangeAction,
  deleteInvite,
  deleteMember,
  findInvite,
  findMemberRights,
  findMemberRole,
  findUserIdByEmail,
  insertMember,
  insertMemberChange,
  listInvites,
  listMemberChanges,
  listMembers,
  setMemberRole,
  setPublishesWithoutReview,
  upsertInvite,
} from "./team.queries.server.ts";

export type { ChangeAction };

/**
 * The team page (/equipe): who is in the newsroom, invitations, role changes and revocations, each logged with who
 * did it (`member_changes`).
 *
 * An invitation never gives an account to whoever holds it: the role is granted only when the address's owner sets
 * a password through the mailed link (Better Auth's reset-password token, single use, INVITE_TTL_SECONDS), which
 * proves the address, replaces any password someone else chose and ends every session (`acceptInvite`, called
 * from the reset hook). So inviting an address that already has an account (maybe registered by someone else) is
 * as safe as inviting a new one, the way `npm run admin -- create` treats an existing account.
 */

export interface TeamMember {
  userId: string;
  email: string;
  name: string;
  role: Role;
  /** "Publica sem revisão": a reporter who publishes and schedules their own stories without review. */
  publishesWithoutReview: boolean;
  /** The newest session's start (ISO), or null: never signed in, or every session ended. */
  lastSignIn: string | null;
  twoFactor: boolean;
}

export interface PendingInvite {
  userId: string;
  email: string;
  role: Role;
  invitedAt: string;
  expiresAt: string;
  expired: boolean;
}

export interface MemberChange {
  id: string;
  at: string;
  actor: string | null;
  target: string | null;
  action: ChangeAction;
  fromRole: Role | null;
  toRole: Role | null;
}

/** Who acts on the team page (the signed-in admin). */
export interface TeamAdmin {
  userId: string;
  email: string;
}

export type TeamResult = { ok: true; message: string } | { ok: false; message: string; status: number };

const ok = (message: string): TeamResult => ({ ok: true, message });
const refused = (message: string, status = 400): TeamResult => ({ ok: false, message, status });
const iso = (value: unknown) => (value == null ? null : value instanceof Date ? value.toISOString() : String(value));
const asRole = (value: unknown): Role | null => (isRole(value) ? value : null);

/**
 * Records a change made outside the team page (the admin command line: `actorId` null), in the same log.
 */
export async function recordChange(
  db: Kysely<Database>,
  change: { targetId: string; action: ChangeAction; fromRole: Role | null; toRole: Role | null; at?: Date },
): Promise<void> {
  await insertMemberChange(db, { ...change, at: (change.at ?? new Date()).toISOString(), actorId: null });
}

/**
 * Called when a password is set through a mailed link (Better Auth's onPasswordReset): an invitation still valid
 * for this account becomes its role (the owner just proved the address). Returns the role granted, or null.
 */
export async function acceptInvite(db: Kysely<Database>, userId: string, now = new Date()): Promise<Role | null> {
  return db.transaction().execute(async (trx) => {
    const invite = await findInvite(trx, userId);
    if (!invite) return null;
    await deleteInvite(trx, userId);
    if (invite.expires_at <= now.toISOString() || !isRole(invite.role)) return null;
    if (await findMemberRole(trx, userId)) return null;
    await insertMember(trx, { userId, role: invite.role, createdAt: now.toISOString() });
    await clearOwnershipCheck(trx, userId);
    await insertMemberChange(trx, {
      at: now.toISOString(),
      actorId: userId,
      targetId: userId,
      action: "accept",
      fromRole: null,
      toRole: invite.role,
    });
    return invite.role;
  });
}

export function createTeamService(deps: {
  db: Kysely<Database>;
  dialect: "sqlite" | "postgres";
  betterAuth: LazyBetterAuth;
  mailer: Mailer;
  config: Pick<AppConfig, "site" | "auth">;
  log: Logger;
  clock?: () => Date;
}) {
  const { db, dialect, betterAuth, mailer, config, log, clock = () => new Date() } = deps;
  const tt = t.team;
  const roleName = (role: Role) => t.roles.names[role];

  const lockAdmins = <T>(change: (trx: Transaction<Database>) => Promise<T>) => withAdminsLocked(db, dialect, change);

  /** Mails `email` a link to set a password, valid for INVITE_TTL_SECONDS and once (a reset-password token). */
  async function sendInviteLink(userId: string, email: string, role: Role, actor: TeamAdmin): Promise<void> {
    // An invitation's token (INVITE_TOKEN_PREFIX): the page it opens says "Crie sua senha", not a reset's words.
    const token = await createInviteToken(betterAuth, userId, new Date(clock().getTime() + INVITE_TTL_SECONDS * 1000));
    const url = `${config.site.url}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
    // The link is a credential: it goes in the mail only, never in a log line.
    await mailer.send({
      to: email,
      subject: tt.mail.subject(config.site.name),
      text: tt.mail.text(config.site.name, actor.email, roleName(role), url, INVITE_TTL_SECONDS / 3600),
    });
  }

  return {
    async members(): Promise<TeamMember[]> {
      const rows = await listMembers(db);
      return rows.map((row) => ({
        userId: row.user_id,
        email: row.email,
        name: row.name,
        role: asRole(row.role) ?? "reporter",
        publishesWithoutReview: Number(row.publishes_without_review) === 1,
        lastSignIn: iso(row.lastSignIn),
        twoFactor: Boolean(row.twoFactorEnabled),
      }));
    },

    async invites(): Promise<PendingInvite[]> {
      const now = clock().toISOString();
      const rows = await listInvites(db);
      return rows.map((row) => ({
        userId: row.user_id,
        email: row.email,
        role: asRole(row.role) ?? "reporter",
        invitedAt: row.invited_at,
        expiresAt: row.expires_at,
        expired: row.expires_at <= now,
      }));
    },

    /** The latest changes, newest first. */
    async changes(limit = 50): Promise<MemberChange[]> {
      const rows = await listMemberChanges(db, limit);
      return rows.map((row) => ({
        id: row.id,
        at: row.at,
        actor: row.actor_email ?? row.actor_id,
        target: row.target_email ?? row.target_id,
        action: row.action,
        fromRole: asRole(row.from_role),
        toRole: asRole(row.to_role),
      }));
    },

    /**
     * Invites `email` with `role`. A new address gets an account (verified, with a password nobody knows); an
     * account that exists and has no role is never granted here: its owner proves the address through the link.
     */
    async invite(actor: TeamAdmin, rawEmail: string, role: Role): Promise<TeamResult> {
      // One plain address (app/lib/email-address.ts): never a display name, a group or a list the mailer would split.
      const email = plainEmailAddress(rawEmail);
      if (email === null) return refused(tt.invalidEmail);
      const now = clock();
      const existingId = await findUserIdByEmail(db, email);
      let userId: string;
      if (existingId) {
        const current = await findMemberRole(db, existingId);
        if (isRole(current)) return refused(tt.alreadyMember(email, roleName(current)), 409);
        userId = existingId;
        // The address's owner must prove it (as `admin create` asks of an account it did not make).
        await requestOwnershipProof(db, userId, now);
      } else {
        userId = await createVerifiedAccount(betterAuth, config.auth.passwordPolicy, {
          email,
          password: unknowablePassword(),
          name: email.split("@")[0] ?? email,
        });
      }
      const expiresAt = new Date(now.getTime() + INVITE_TTL_SECONDS * 1000).toISOString();
      await db.transaction().execute(async (trx) => {
        await upsertInvite(trx, { user_id: userId, role, invited_by: actor.userId, invited_at: now.toISOString(), expires_at: expiresAt });
        await insertMemberChange(trx, {
          at: now.toISOString(),
          actorId: actor.userId,
          targetId: userId,
          action: "invite",
          fromRole: null,
          toRole: role,
        });
      });
      try {
        await sendInviteLink(userId, email, role, actor);
      } catch (error) {
        log.error({ err: error }, "invitation mail could not be sent");
        return refused(tt.mailFailed(email), 502);
      }
      return ok(tt.invited(email, roleName(role)));
    },

    /** Cancels a pending invitation (its link then sets a password but gives no role). */
    async cancelInvite(actor: TeamAdmin, userId: string): Promise<TeamResult> {
      const invite = await findInvite(db, userId);
      if (!invite) return refused(tt.inviteNotFound, 404);
      await db.transaction().execute(async (trx) => {
        await deleteInvite(trx, userId);
        await insertMemberChange(trx, {
          at: clock().toISOString(),
          actorId: actor.userId,
          targetId: userId,
          action: "cancel",
          fromRole: null,
          toRole: asRole(invite.role),
        });
      });
      await clearOwnershipCheck(db, userId);
      return ok(tt.inviteCancelled);
    },

    /** Changes a member's role: never the actor's own, never the last admin's. */
    async changeRole(actor: TeamAdmin, userId: string, role: Role): Promise<TeamResult> {
      if (userId === actor.userId) return refused(tt.notYourself, 409);
      return lockAdmins(async (trx) => {
        const current = asRole(await findMemberRole(trx, userId));
        if (!current) return refused(tt.memberNotFound, 404);
        if (current === role) return ok(tt.roleUnchanged(roleName(role)));
        if (await leavesNoAdmin(trx, userId, current, role)) return refused(tt.lastAdmin, 409);
        await setMemberRole(trx, userId, role);
        await insertMemberChange(trx, {
          at: clock().toISOString(),
          actorId: actor.userId,
          targetId: userId,
          action: "role",
          fromRole: current,
          toRole: role,
        });
        return ok(tt.roleChanged(roleName(current), roleName(role)));
      });
    },

    /**
     * Gives or takes a member's "publica sem revisão" right (it counts for reporters: editors and admins publish
     * anyway). Valid from the member's next save; logged like a role change.
     */
    async setPublishesWithoutReview(actor: TeamAdmin, userId: string, on: boolean): Promise<TeamResult> {
      return db.transaction().execute(async (trx) => {
        const current = await findMemberRights(trx, userId);
        const role = asRole(current?.role);
        if (!current || !role) return refused(tt.memberNotFound, 404);
        if ((Number(current.publishes_without_review) === 1) === on) return ok(on ? tt.publishesAlreadyOn : tt.publishesAlreadyOff);
        await setPublishesWithoutReview(trx, userId, on);
        await insertMemberChange(trx, {
          at: clock().toISOString(),
          actorId: actor.userId,
          targetId: userId,
          action: on ? "publishes_on" : "publishes_off",
          fromRole: role,
          toRole: role,
        });
        return ok(on ? tt.publishesOn : tt.publishesOff);
      });
    },

    /** Removes a member's access and ends their sessions: never the actor's own, never the last admin's. */
    async revoke(actor: TeamAdmin, userId: string): Promise<TeamResult> {
      if (userId === actor.userId) return refused(tt.notYourself, 409);
      return lockAdmins(async (trx) => {
        const stored = await findMemberRole(trx, userId);
        if (stored === undefined) return refused(tt.memberNotFound, 404);
        const current = asRole(stored);
        if (await leavesNoAdmin(trx, userId, current, null)) return refused(tt.lastAdmin, 409);
        await deleteMember(trx, userId);
        await insertMemberChange(trx, {
          at: clock().toISOString(),
          actorId: actor.userId,
          targetId: userId,
          action: "revoke",
          fromRole: current,
          toRole: null,
        });
        return ok(tt.revoked);
      });
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;

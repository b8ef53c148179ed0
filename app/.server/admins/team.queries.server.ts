import { randomUUID } from "node:crypto";
import type { Insertable, Kysely, Transaction } from "kysely";
import type { Role } from "#app/lib/roles.ts";
import type { Database, MemberChangesTable, MemberInvitesTable } from "#app/.server/db/schema.ts";

/**
 * The team's tables: `admins` (members and their roles), `member_invites`, `member_changes` (the log), and what the
 * team reads and ends of Better Auth's `user` and `session`. Free functions taking `db` or a transaction (team.server.ts
 * and admins.service.server.ts hold the rules).
 */
type Db = Kysely<Database> | Transaction<Database>;

export type ChangeAction = MemberChangesTable["action"];

export interface ChangeEntry {
  at: string;
  actorId: string | null;
  targetId: string;
  action: ChangeAction;
  fromRole: Role | null;
  toRole: Role | null;
}

/** Ids that sort in the order this process wrote them (changes within one millisecond keep their order in the log). */
let sequence = 0;
const changeId = () => `${(sequence++ % 36 ** 6).toString(36).padStart(6, "0")}-${randomUUID()}`;

const emailOf = async (db: Db, id: string | null) =>
  id ? ((await db.selectFrom("user").select("email").where("id", "=", id).executeTakeFirst())?.email ?? null) : null;

/** A line of the team's log, with the actor's and the target's e-mail as they are now (the log outlives accounts). */
export async function insertMemberChange(db: Db, change: ChangeEntry): Promise<void> {
  await db
    .insertInto("member_changes")
    .values({
      id: changeId(),
      at: change.at,
      actor_id: change.actorId,
      actor_email: await emailOf(db, change.actorId),
      target_id: change.targetId,
      target_email: await emailOf(db, change.targetId),
      action: change.action,
      from_role: change.fromRole,
      to_role: change.toRole,
    })
    .execute();
}

/** The latest log lines, newest first. */
export const listMemberChanges = (db: Db, limit: number) =>
  db.selectFrom("member_changes").selectAll().orderBy("at", "desc").orderBy("id", "desc").limit(limit).execute();

/** The members with their account's e-mail, name, two-factor flag and newest session start, oldest member first. */
export const listMembers = (db: Db) =>
  db
    .selectFrom("admins")
    .innerJoin("user", "user.id", "admins.user_id")
    .select([
      "admins.user_id",
      "admins.role",
      "admins.publishes_without_review",
      "admins.created_at",
      "user.email",
      "user.name",
      "user.twoFactorEnabled",
    ])
    .select((eb) =>
      eb
        .selectFrom("session")
        .select((s) => s.fn.max("session.createdAt").as("at"))
        .whereRef("session.userId", "=", "admins.user_id")
        .as("lastSignIn"),
    )
    .orderBy("admins.created_at", "asc")
    .execute();

/** Every role row with its account's e-mail and name (null when the account is gone), oldest first. */
export const listRoles = (db: Db) =>
  db
    .selectFrom("admins")
    .leftJoin("user", "user.id", "admins.user_id")
    .select(["admins.user_id", "admins.created_at", "admins.role", "user.email", "user.name"])
    .orderBy("admins.created_at", "asc")
    .execute();

/** A member's role as stored, or undefined for an account that is not a member. */
export const findMemberRole = async (db: Db, userId: string) =>
  (await db.selectFrom("admins").select("role").where("user_id", "=", userId).executeTakeFirst())?.role;

export async function insertMember(db: Db, member: { userId: string; role: Role; createdAt: string }): Promise<void> {
  await db.insertInto("admins").values({ user_id: member.userId, created_at: member.createdAt, role: member.role }).execute();
}

/** Makes the account a member with `role`, unless it already is one (then it keeps its role). */
export async function insertMemberIfAbsent(db: Db, member: { userId: string; role: Role; createdAt: string }): Promise<void> {
  await db
    .insertInto("admins")
    .values({ user_id: member.userId, created_at: member.createdAt, role: member.role })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
}

/** Changes a member's role; false when the account is not a member (nothing changed). */
export async function setMemberRole(db: Db, userId: string, role: Role): Promise<boolean> {
  const result = await db.updateTable("admins").set({ role }).where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives or takes a member's "publica sem revisão" right; false when the account is not a member. */
export async function setPublishesWithoutReview(db: Db, userId: string, on: boolean): Promise<boolean> {
  const result = await db
    .updateTable("admins")
    .set({ publishes_without_review: on ? 1 : 0 })
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A member's role and "publica sem revisão" right as stored, or undefined for an account that is not a member. */
export const findMemberRights = (db: Db, userId: string) =>
  db.selectFrom("admins").select(["role", "publishes_without_review"]).where("user_id", "=", userId).executeTakeFirst();

/** Removes the account's role (only that); false when it had none. */
export async function deleteMemberRole(db: Db, userId: string): Promise<boolean> {
  const result = await db.deleteFrom("admins").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Ends every session of the account; how many there were. */
export async function deleteSessionsOf(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("session").where("userId", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Removes a member: the role, a pending invitation, and every session. */
export async function deleteMember(db: Db, userId: string): Promise<void> {
  await deleteMemberRole(db, userId);
  await deleteInvite(db, userId);
  await deleteSessionsOf(db, userId);
}

/** The pending invitations with the invited account's e-mail, newest first. */
export const listInvites = (db: Db) =>
  db
    .selectFrom("member_invites")
    .innerJoin("user", "user.id", "member_invites.user_id")
    .select(["member_invites.user_id", "member_invites.role", "member_invites.invited_at", "member_invites.expires_at", "user.email"])
    .orderBy("member_invites.invited_at", "desc")
    .execute();

export const findInvite = (db: Db, userId: string) => db.selectFrom("member_invites").selectAll().where("user_id", "=", userId).executeTakeFirst();

export async function deleteInvite(db: Db, userId: string): Promise<void> {
  await db.deleteFrom("member_invites").where("user_id", "=", userId).execute();
}

/** An invitation, or a new one in place of the account's pending one. */
export async function upsertInvite(db: Db, invite: Insertable<MemberInvitesTable>): Promise<void> {
  const { user_id: _user, ...again } = invite;
  await db
    .insertInto("member_invites")
    .values(invite)
    .onConflict((oc) => oc.column("user_id").doUpdateSet(again))
    .execute();
}

/** The account with this e-mail (compared in lower case), if any. */
export const findUserIdByEmail = async (db: Db, email: string) =>
  (
    await db
      .selectFrom("user")
      .select("id")
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", email))
      .executeTakeFirst()
  )?.id;

/** The account with this id or this e-mail (compared in lower case), if any, as stored. */
export const findUserByIdOrEmail = (db: Db, idOrEmail: string) =>
  db
    .selectFrom("user")
    .select(["id", "email", "name", "emailVerified", "createdAt"])
    .where((eb) => eb.or([eb("id", "=", idOrEmail), eb(eb.fn("lower", ["email"]), "=", idOrEmail.toLowerCase())]))
    .executeTakeFirst();

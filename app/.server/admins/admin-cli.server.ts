import { parseArgs } from "node:util";
import type { AppServices } from "#app/.server/app.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { terminal } from "#app/i18n/pt-BR.ts";
import { plainEmailAddress } from "#app/lib/email-address.ts";
import { isRole, type Role } from "#app/lib/roles.ts";
import { leavesNoAdmin, withAdminsLocked } from "./last-admin.server.ts";
import { createVerifiedAccount, deleteAccount, PasswordPolicyError, unknowablePassword } from "#app/.server/auth/accounts.server.ts";
import { clearOwnershipCheck, ownershipOf, requestOwnershipProof } from "./ownership.server.ts";
import { recordChange } from "./team.server.ts";
import { deleteMemberRole, deleteSessionsOf, findMemberRights, setMemberRole, setPublishesWithoutReview } from "./team.queries.server.ts";

export class CliError extends Error {
  override name = "CliError";
}

/** The terminal, as the command sees it (tests pass their own). */
export interface CliIO {
  /** Whether a person is at the terminal (standard input is a TTY): then the command may ask questions. */
  interactive: boolean;
  /** Asks a question and returns the answer (a line). */
  ask(question: string): Promise<string>;
  /** Asks for a secret without echoing it. */
  askHidden(question: string): Promise<string>;
  /** The first line of standard input (for `echo "$SENHA" | npm run admin -- create …`). */
  readStdinLine(): Promise<string>;
  /** A warning for the operator (standard error). */
  warn(message: string): void;
}

/** A terminal nobody answers (scripts, tests): no questions, the password (if any) from standard input. */
export const NON_INTERACTIVE_IO: CliIO = {
  interactive: false,
  ask: () => Promise.reject(new CliError(terminal.adminCli.noTerminal)),
  askHidden: () => Promise.reject(new CliError(terminal.adminCli.noTerminal)),
  readStdinLine: () => Promise.resolve(""),
  warn: (message) => void process.stderr.write(`${message}\n`),
};

type CliServices = Pick<AppServices, "admins" | "betterAuth" | "config" | "auth" | "database">;

const OPTIONS = {
  email: { type: "string" },
  password: { type: "string" },
  name: { type: "string" },
  yes: { type: "boolean" },
  "send-link": { type: "boolean" },
  "replace-unverified": { type: "boolean" },
  role: { type: "string" },
} as const;

const roleName = (role: Role) => t.roles.names[role];

/** The role of `--role` (admin when absent, as before roles existed); anything else is bad input. */
function roleOption(value: string | undefined): Role {
  if (value === undefined) return "admin";
  const role = value.trim().toLowerCase();
  if (!isRole(role)) throw new CliError(terminal.adminCli.invalidRole(value));
  return role;
}

/** What to say when the account already has a role: the same one, or another (changed with `role`, never here). */
function alreadyMember(user: { id: string; email: string }, current: Role, wanted: Role): string {
  return current === wanted
    ? terminal.adminCli.alreadyAdmin(user.email, user.id, roleName(current))
    : terminal.adminCli.otherRole(user.email, user.id, roleName(current), wanted);
}

/** The options of a command; an unknown or incomplete option is bad input (CliError), not a crash. */
function parseOptions(args: string[]) {
  try {
    return parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS_")) throw error;
    const option = /'(-[^']*)'/.exec((error as Error).message)?.[1];
    throw new CliError(`${terminal.adminCli.invalidOption(option)}\n${terminal.adminCli.usage}`);
  }
}

/**
 * Gives admin rights to an existing account. Only an account whose owner proved the address (followed the
 * confirmation or a reset link, or was created by this command) qualifies: an account anyone could have
 * registered with the newsroom's address never becomes admin. The operator confirms, and every session the account
 * had is ended (whoever was signed in with it must sign in again, now under the operator's eyes).
 */
async function grantExisting(
  services: CliServices,
  io: CliIO,
  user: { id: string; email: string; emailVerified: boolean; createdAt: string },
  confirmed: boolean,
  role: Role,
): Promise<string> {
  if (!user.emailVerified) throw new CliError(terminal.adminCli.unverifiedRefusal(user.email));
  const current = await services.admins.roleOf(user.id);
  if (current) return alreadyMember(user, current, role);
  const ownership = await ownershipOf(services.database.db, user.id);
  if (ownership.state === "pending")
    throw new CliError(terminal.adminCli.ownershipPending(user.email, ownership.requestedAt.slice(0, 16).replace("T", " ")));
  if (!confirmed) {
    if (!io.interactive) {
      throw new CliError(terminal.adminCli.existsRepeatWithYes(user.email));
    }
    const answer = await io.ask(terminal.adminCli.confirmGrant(user.email, user.id, user.createdAt.slice(0, 10)));
    if (!/^s(im)?$/i.test(answer.trim())) throw new CliError(terminal.adminCli.nothingChanged);
  }
  await services.admins.grant(user.id, role);
  await recordChange(services.database.db, { targetId: user.id, action: "grant", fromRole: null, toRole: role });
  await clearOwnershipCheck(services.database.db, user.id);
  const ended = await services.admins.endSessions(user.id);
  return terminal.adminCli.granted(user.email, user.id, ended, roleName(role));
}

/**
 * `create` for an address that already has an account. Its password was not set by the operator: whoever
 * registered the address first (maybe not its owner, who may even have clicked the confirmation mail) knows it. So
 * the account is never granted here, with or without --yes: the address is mailed a fresh reset link, and once its
 * owner has set a new password through it (which ends every session of the account), `grant` (or `create` again)
 * gives access.
 */
async function createForExisting(
  services: CliServices,
  io: CliIO,
  user: { id: string; email: string; emailVerified: boolean; createdAt: string },
  confirmed: boolean,
  role: Role,
): Promise<string> {
  if (!user.emailVerified) throw new CliError(terminal.adminCli.unverifiedRefusal(user.email));
  const current = await services.admins.roleOf(user.id);
  if (current) return alreadyMember(user, current, role);
  if ((await ownershipOf(services.database.db, user.id)).state === "proven") return grantExisting(services, io, user, confirmed, role);
  await requestOwnershipProof(services.database.db, user.id);
  const sent = await services.auth.sendSetPasswordLink(user.email);
  const outbox = sent === "outbox" ? services.config.mail.outboxDir : null;
  return terminal.adminCli.ownershipLinkSent(user.email, user.id, user.createdAt.slice(0, 10), outbox);
}

/** The new account's password: from --password (with a warning), a hidden prompt (asked twice) or standard input. */
async function readNewPassword(io: CliIO, flag: string | undefined): Promise<string> {
  if (flag !== undefined) {
    io.warn(terminal.adminCli.passwordFlagWarning);
    return flag;
  }
  if (!io.interactive) {
    const line = await io.readStdinLine();
    if (!line) throw new CliError(terminal.adminCli.passwordRequired);
    return line;
  }
  const first = await io.askHidden(terminal.adminCli.passwordPrompt);
  const second = await io.askHidden(terminal.adminCli.passwordRepeatPrompt);
  if (first !== second) throw new CliError(terminal.adminCli.passwordsDiffer);
  return first;
}

/**
 * The admin command line. Returns what to print; throws CliError (with a pt-BR message) on bad input.
 * Kept apart from the script so tests can run it against a real database.
 */
export async function runAdminCli(argv: string[], services: CliServices, io: CliIO = NON_INTERACTIVE_IO): Promise<string> {
  const [command, ...rest] = argv;
  switch (command) {
    case "create": {
      const { values, positionals } = parseOptions(rest);
      if (positionals.length) throw new CliError(`${terminal.adminCli.unexpectedArgument(positionals[0]!)}\n${terminal.adminCli.usage}`);
      // The same rule as the team's invitation and the sign-in form (app/lib/email-address.ts).
      const email = plainEmailAddress(values.email ?? "");
      if (email === null) throw new CliError(terminal.adminCli.emailRequired);
      if (values["send-link"] && values.password !== undefined) throw new CliError(terminal.adminCli.sendLinkOrPassword);
      const role = roleOption(values.role);
      let existing = await services.admins.findUser(email);
      if (existing && !existing.emailVerified && values["replace-unverified"]) {
        await deleteAccount(services.betterAuth, existing.id);
        io.warn(terminal.adminCli.unverifiedDeleted(email, existing.id));
        existing = undefined;
      }
      if (existing) return createForExisting(services, io, existing, Boolean(values.yes), role);

      const sendLink = Boolean(values["send-link"]);
      const password = sendLink ? unknowablePassword() : await readNewPassword(io, values.password);
      let userId: string;
      try {
        userId = await createVerifiedAccount(services.betterAuth, services.config.auth.passwordPolicy, {
          email,
          password,
          name: values.name ?? email.split("@")[0] ?? email,
        });
      } catch (error) {
        const detail = error instanceof PasswordPolicyError ? error.message : error instanceof Error ? error.message : String(error);
        throw new CliError(terminal.adminCli.createFailed(detail));
      }
      await services.admins.grant(userId, role);
      await recordChange(services.database.db, { targetId: userId, action: "grant", fromRole: null, toRole: role });
      if (!sendLink) return terminal.adminCli.created(email, userId, roleName(role));
      // A new account: its owner creates the password (an invitation's link and words, not a reset's).
      const sent = await services.auth.sendNewAccountLink({ userId, email, roleName: roleName(role) });
      return terminal.adminCli.createdLinkSent(email, userId, sent === "outbox" ? services.config.mail.outboxDir : null, roleName(role));
    }
    case "grant": {
      const { values, positionals } = parseOptions(rest);
      const target = positionals[0];
      if (!target || positionals.length > 1) throw new CliError(terminal.adminCli.grantUsage);
      const role = roleOption(values.role);
      const user = await services.admins.findUser(target);
      if (!user) throw new CliError(terminal.adminCli.notFound(target));
      return grantExisting(services, io, user, Boolean(values.yes), role);
    }
    case "role": {
      // Only changes the role of an account that already has access: giving access goes through grant/create (a
      // confirmed address, the owner's proof for an account the operator did not create).
      const [target, wanted, ...extra] = rest;
      if (!target || !wanted || extra.length) throw new CliError(terminal.adminCli.roleUsage);
      if (!isRole(wanted.trim().toLowerCase())) throw new CliError(terminal.adminCli.invalidRole(wanted));
      const role = wanted.trim().toLowerCase() as Role;
      const user = await services.admins.findUser(target);
      if (!user) throw new CliError(terminal.adminCli.notFound(target));
      const current = await services.admins.roleOf(user.id);
      if (!current) throw new CliError(terminal.adminCli.roleNoAccess(user.email, role));
      if (current === role) return terminal.adminCli.roleUnchanged(user.email, user.id, roleName(role));
      // The role is read on every request: the change holds from the member's next click, without a new sign-in.
      // Never the last admin (the same rule as /equipe, checked and changed under the same lock).
      const { db, dialect } = services.database;
      const lastAdmin = await withAdminsLocked(db, dialect, async (trx) => {
        if (await leavesNoAdmin(trx, user.id, current, role)) return true;
        await setMemberRole(trx, user.id, role);
        return false;
      });
      if (lastAdmin) throw new CliError(terminal.adminCli.lastAdmin(user.email));
      await recordChange(services.database.db, { targetId: user.id, action: "role", fromRole: current, toRole: role });
      return terminal.adminCli.roleChanged(user.email, user.id, roleName(current), roleName(role));
    }
    case "revoke": {
      const target = rest[0];
      if (!target || rest.length > 1) throw new CliError(terminal.adminCli.revokeUsage);
      const user = await services.admins.findUser(target);
      if (!user) throw new CliError(terminal.adminCli.notFound(target));
      const current = await services.admins.roleOf(user.id);
      const { db, dialect } = services.database;
      const was = await withAdminsLocked(db, dialect, async (trx) => {
        if (await leavesNoAdmin(trx, user.id, current, null)) return "last-admin" as const;
        const had = await deleteMemberRole(trx, user.id);
        await deleteSessionsOf(trx, user.id);
        return had;
      });
      if (was === "last-admin") throw new CliError(terminal.adminCli.lastAdmin(user.email));
      if (was) await recordChange(services.database.db, { targetId: user.id, action: "revoke", fromRole: current, toRole: null });
      return was ? terminal.adminCli.revoked(user.email, user.id, roleName(current ?? "admin")) : terminal.adminCli.wasNotAdmin(user.email, user.id);
    }
    case "publisher": {
      // The "publica sem revisão" right (the same as the toggle on /equipe), logged as the command line.
      const [target, wanted, ...extra] = rest;
      const on = /^(sim|s|on|yes)$/i.test(wanted?.trim() ?? "") ? true : /^(nao|não|n|off|no)$/i.test(wanted?.trim() ?? "") ? false : null;
      if (!target || on === null || extra.length) throw new CliError(terminal.adminCli.publisherUsage);
      const user = await services.admins.findUser(target);
      if (!user) throw new CliError(terminal.adminCli.notFound(target));
      const rights = await findMemberRights(services.database.db, user.id);
      const role = rights && isRole(rights.role) ? rights.role : null;
      if (!rights || !role) throw new CliError(terminal.adminCli.publisherNoAccess(user.email));
      if ((Number(rights.publishes_without_review) === 1) === on) return terminal.adminCli.publisherUnchanged(user.email, user.id, on);
      await setPublishesWithoutReview(services.database.db, user.id, on);
      await recordChange(services.database.db, { targetId: user.id, action: on ? "publishes_on" : "publishes_off", fromRole: role, toRole: role });
      return terminal.adminCli.publisherChanged(user.email, user.id, on, role);
    }
    case "list": {
      const admins = await services.admins.list();
      if (!admins.length) return terminal.adminCli.noAdmins;
      return admins.map((admin) => terminal.adminCli.listLine(admin.userId, admin.email, roleName(admin.role), admin.grantedAt)).join("\n");
    }
    default:
      throw new CliError(terminal.adminCli.usage);
  }
}

import { randomBytes } from "node:crypto";
import { href } from "react-router";
import { type Kysely, sql } from "kysely";
import type { AppConfig } from "#app/.server/config/env.server.ts";
import type { Database } from "#app/.server/db/schema.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import type { Mailer } from "#app/.server/mail/mailer.server.ts";
import type { RoutePath } from "#app/lib/route-paths.ts";

/** Where Better Auth's own HTTP handler answers: the `api/auth/*` route, without its splat. */
export const AUTH_BASE_PATH = ("/api/auth/*" satisfies RoutePath).slice(0, -"/*".length);
/** Paths of Better Auth's own HTTP handler that the browser may reach (everything else goes through our forms). */
export const PUBLIC_AUTH_PATHS = [href("/api/auth/*", { "*": "callback/google" })];

/** Where the links of our e-mails lead (our own pages, which call Better Auth on the server). */
export const VERIFY_EMAIL_PATH = href("/admin/verify-email");
export const RESET_PASSWORD_PATH = href("/admin/reset-password");

/**
 * The token of an invitation's link (the team page's, app/.server/admins/team.server.ts) starts with this. It is a
 * reset-password token like any other (Better Auth checks and spends it), issued by us with a mark no reset token
 * has (Better Auth's are letters and digits only): the reset page tells an invitation by it, and only for a token
 * that is still live, so its words ("Crie sua senha") never rest on the address alone. Words only: what the link
 * may do is the token's, whatever it starts with.
 */
export const INVITE_TOKEN_PREFIX = "convite-";

/** Whether `token` was issued as an invitation's (see INVITE_TOKEN_PREFIX). */
export function isInviteToken(token: string): boolean {
  return token.startsWith(INVITE_TOKEN_PREFIX);
}

/**
 * A new invitation token for `userId`, valid until `expiresAt` and once: a reset-password token (Better Auth checks
 * and spends it, and its reset hook accepts a pending invitation) marked as an invitation's. The link's token.
 */
export async function createInviteToken(auth: LazyBetterAuth, userId: string, expiresAt: Date): Promise<string> {
  const context = await (await auth.get()).$context;
  const token = `${INVITE_TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;
  await context.internalAdapter.createVerificationValue({ value: userId, identifier: `reset-password:${token}`, expiresAt });
  return token;
}

/** Lifetime of an e-mail verification link (24 h) and of a reset / set-password link (1 h). */
export const VERIFY_EMAIL_TTL_SECONDS = 24 * 3600;
export const RESET_TOKEN_TTL_SECONDS = 3600;

export interface AuthDeps {
  config: Pick<AppConfig, "site" | "auth">;
  db: Kysely<Database>;
  dialect: "sqlite" | "postgres";
  secret: string;
  mailer: Mailer;
  log: Logger;
}

/** The Better Auth instance, built on first use (see createBetterAuth). */
export type BetterAuthInstance = ReturnType<typeof import("./better-auth.server.ts").buildBetterAuth>;

/**
 * Better Auth, loaded on first use: its modules take ~300 ms and ~20 MB to load, and readers (every request without a
 * session cookie) never need it. `get()` builds the instance once; `beforeFirstUse` runs once before it is handed
 * out (the deferred schema check on an existing installation). A failed build is retried on the next call.
 */
export interface LazyBetterAuth {
  get(): Promise<BetterAuthInstance>;
  beforeFirstUse(prepare: (auth: BetterAuthInstance) => Promise<void>): void;
  /** Whether the instance has been built (tests, and to tell whether a schema check is still pending). */
  readonly loaded: boolean;
}

export function createBetterAuth(deps: AuthDeps): LazyBetterAuth {
  let building: Promise<BetterAuthInstance> | undefined;
  let prepare: ((auth: BetterAuthInstance) => Promise<void>) | undefined;
  let loaded = false;
  return {
    get() {
      building ??= import("./better-auth.server.ts")
        .then(async ({ buildBetterAuth }) => {
          const auth = buildBetterAuth(deps);
          await prepare?.(auth);
          loaded = true;
          return auth;
        })
        .catch((error: unknown) => {
          building = undefined;
          throw error;
        });
      return building;
    },
    beforeFirstUse(task) {
      prepare = task;
    },
    get loaded() {
      return loaded;
    },
  };
}

/** Marks the account's e-mail as verified (booleans are 0/1 on SQLite and true/false on PostgreSQL). */
export async function markEmailVerified(db: Kysely<Database>, userId: string): Promise<void> {
  await sql`update "user" set "emailVerified" = ${sql.lit(true)} where "id" = ${userId}`.execute(db);
}

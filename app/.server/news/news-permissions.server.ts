import type { Kysely, Transaction } from "kysely";
import { t } from "../../i18n/newsroom.ts";
import { canPublish, type Role } from "../../lib/roles.ts";
import { listMemberAuthors } from "../admins/profiles.queries.server.ts";
import type { Database, NewsRow, StoredNewsStatus } from "../db/schema.ts";
import { AppError } from "../errors.ts";
import { termSlug } from "./taxonomy.server.ts";

/**
 * Who makes a change: a newsroom member with their role (the routes pass the request's viewer), whose role decides
 * what they may do (below), or a bare user id / null for the site's own code (imports, seeds, scripts, the tests'
 * factories), which acts with every right, as before roles existed.
 */
export type Actor = { userId: string; role: Role } | string | null;

export const actorIdOf = (actor: Actor) => (typeof actor === "string" || actor === null ? actor : actor.userId);

/** A reporter (a member below editor) making the change; null for editors, admins and the site's own code. */
export function reporterOf(actor: Actor): { userId: string; role: Role } | null {
  return typeof actor === "object" && actor !== null && !canPublish(actor.role) ? actor : null;
}

/** A change the actor's role does not allow: 403 with a stable code and a pt-BR message. */
export class RoleForbiddenError extends AppError {
  override name = "RoleForbiddenError";
  constructor(
    code:
      | "publish_forbidden"
      | "story_not_yours"
      | "story_locked"
      | "delete_forbidden"
      | "restore_forbidden"
      | "return_forbidden"
      | "alert_forbidden",
    message: string,
  ) {
    super(code, message, 403);
  }
}

/**
 * What a reporter may do to a story that exists: only to their own (the account that created it), in any status:
 * a reporter corrects their own story also once it is published or scheduled (the save goes live; the editors are
 * told, news-review.server.ts). Deleting stays limited to their own drafts and stories in review. Editors and admins
 * (and the site's own code) may do anything. Checked before anything of the change is stored.
 */
export function requireReporterMayChange(actor: Actor, existing: Pick<NewsRow, "owner_id" | "status" | "review_requested_at">, forDelete = false) {
  const reporter = reporterOf(actor);
  if (!reporter) return;
  if (existing.owner_id !== reporter.userId) throw new RoleForbiddenError("story_not_yours", t.roles.notOwnStory);
  if (forDelete && existing.status !== "draft") throw new RoleForbiddenError("delete_forbidden", t.roles.deleteForbidden);
}

/** A story's status and publication date, before and after a save. */
type Published = { status: StoredNewsStatus; published_at: string };

/**
 * A reporter's save may publish, schedule or unpublish only with the "publica sem revisão" right (`publishes`, read
 * from the member's row by reporterRights). Without it the save leaves the story as it was: a draft stays a draft
 * (or goes to review), a published story stays published and a scheduled one keeps its time (a correction).
 */
export function requireReporterMayPublish(actor: Actor, before: Published | null, after: Published, publishes = false) {
  if (!reporterOf(actor) || publishes) return;
  if (after.status === "draft" && (before === null || before.status === "draft")) return;
  // The same time to the minute: the form sends a schedule back as its field shows it ("2026-11-25T10:00").
  if (before && before.status === after.status && before.published_at.slice(0, 16) === after.published_at.slice(0, 16)) return;
  throw new RoleForbiddenError("publish_forbidden", t.roles.publishForbidden);
}

/** What a reporter making a change may do beyond their role: publish directly, and the name they sign with. */
export interface ReporterRights {
  /** "Publica sem revisão" (admins.publishes_without_review, set on /equipe or by `npm run admin -- publisher`). */
  publishes: boolean;
  /** Their own signing name and its slug (a reporter never signs as another author); null if unknown. */
  self: { displayName: string; slug: string } | null;
}

/** The rights of a reporter actor, read now from the database (null for editors, admins and the site's own code). */
export async function reporterRights(db: Kysely<Database> | Transaction<Database>, actor: Actor): Promise<ReporterRights | null> {
  const reporter = reporterOf(actor);
  if (!reporter) return null;
  const row = await db.selectFrom("admins").select("publishes_without_review").where("user_id", "=", reporter.userId).executeTakeFirst();
  const self = (await listMemberAuthors(db)).find((member) => member.userId === reporter.userId) ?? null;
  return { publishes: Number(row?.publishes_without_review ?? 0) === 1, self };
}

/**
 * The columns of a reporter's save that a reporter may set: never the highlight (an editor's choice), never an
 * author other than themself (an author that is not their signing name is dropped: the story keeps the one it has).
 * Editors, admins and the site's own code (rights null) set everything.
 */
export function reporterColumns<T extends { is_highlighted?: unknown; author?: unknown }>(rights: ReporterRights | null, columns: T): T {
  if (!rights) return columns;
  const { is_highlighted: _highlight, ...rest } = columns;
  const result = rest as T;
  if (typeof result.author === "string" && (!rights.self || termSlug(result.author) !== rights.self.slug)) delete result.author;
  return result;
}

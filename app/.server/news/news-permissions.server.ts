import { t } from "../../i18n/newsroom.ts";
import { canPublish, type Role } from "../../lib/roles.ts";
import type { NewsRow, NewsStatus } from "../db/schema.ts";
import { AppError } from "../errors.ts";

/**
 * Who makes a change: a newsroom member with their role (the routes pass the request's viewer), whose role decides
 * what they may do (below), or a bare user id / null for the site's own code (imports, seeds, scripts, the tests'
 * factories), which acts with every right, as before roles existed.
 */
export type Actor = { userId: string; role: Role } | string | null;

export const actorIdOf = (actor: Actor) => (typeof actor === "string" || actor === null ? actor : actor.userId);

/** A change the actor's role does not allow: 403 with a stable code and a pt-BR message. */
export class RoleForbiddenError extends AppError {
  override name = "RoleForbiddenError";
  constructor(
    code: "publish_forbidden" | "story_not_yours" | "story_locked" | "delete_forbidden" | "restore_forbidden" | "return_forbidden",
    message: string,
  ) {
    super(code, message, 403);
  }
}

/**
 * What a reporter may do to a story that exists: only to their own (the account that created it), and only while it
 * is a draft or in review. Editors and admins (and the site's own code) may do anything. Checked before anything of
 * the change is stored.
 */
export function requireReporterMayChange(actor: Actor, existing: Pick<NewsRow, "owner_id" | "status" | "review_requested_at">, forDelete = false) {
  if (typeof actor !== "object" || actor === null || canPublish(actor.role)) return;
  if (existing.owner_id !== actor.userId) throw new RoleForbiddenError("story_not_yours", t.roles.notOwnStory);
  if (existing.status !== "draft") {
    throw forDelete
      ? new RoleForbiddenError("delete_forbidden", t.roles.deleteForbidden)
      : new RoleForbiddenError("story_locked", t.roles.storyLocked);
  }
}

/** A reporter's save may only leave the story a draft (or in review): never published, scheduled or unpublished. */
export function requireReporterMayPublish(actor: Actor, status: NewsStatus) {
  if (typeof actor !== "object" || actor === null || canPublish(actor.role)) return;
  if (status !== "draft") throw new RoleForbiddenError("publish_forbidden", t.roles.publishForbidden);
}

import type { Kysely, Transaction } from "kysely";
import { data, href, redirect } from "react-router";
import { t } from "#app/i18n/newsroom.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";
import type { BulkAction } from "#app/lib/newsroom-query.ts";
import { requiredRoleOf, type RouteHandle } from "#app/lib/route-facts.ts";
import { canPublish, hasRole, mayAlert, mayReturn, type Role, seesUnpublished } from "#app/lib/roles.ts";
import { listMemberAuthors } from "#app/.server/admins/profiles.queries.server.ts";
import { type RequestContext, routeTableContext, servicesOf } from "#app/.server/context.server.ts";
import type { Database, NewsRow, StoredNewsStatus } from "#app/.server/db/schema.ts";
import { AppError } from "#app/.server/errors.ts";
import { apiError, toApiError } from "#app/.server/http/api.server.ts";
import { termSlug } from "#app/.server/news/taxonomy/taxonomy.server.ts";
import type { AuthService, Viewer } from "./auth.service.server.ts";

/**
 * The server's permission rules in one place: who may open a newsroom page or call the API (`requireRole`,
 * `requireRoleApi`, from the role in each route's facts), who sees unpublished stories (`newsroomAccess`), what an
 * actor may do to a story (change, delete, publish, restore a revision, return it to its reporter), to its live
 * coverage and with alerts, and whose public profile a member may edit. Routes and services import them from here;
 * the browser's view of the same rules (what the drawer, forms and buttons hide) is app/lib/roles.ts, whose role
 * ladder and named rights (`hasRole`, `canPublish`, `mayAlert`) these rules apply.
 *
 * It lives in auth/ because every rule starts from who the request is (auth.service.server.ts, beside it) and its
 * role; the services it guards (news/, push/, admins/, http/) import it rather than each keeping a rule of its own.
 *
 * The page and API guards take the request and its context (`guard(request, context)`) and read the auth service
 * from the context.
 */

/** A viewer who is part of the newsroom. */
export type Member = Viewer & { role: Role };

/**
 * The signed-in member of this request whose role is at least `needed` (a role, or a route's `handle`, whose facts
 * say the role: app/lib/route-facts.ts). Anyone without a role (no session, or an account that is not part of the
 * newsroom) is redirected to /admin/login, which remembers where they were going; a member whose role is too low
 * gets a 403 page with a pt-BR message (code `role_forbidden`). Every newsroom loader and action starts with this.
 */
export async function requireRole(
  request: Request,
  context: RequestContext,
  needed: Role | RouteHandle,
  options: { allowWithoutTwoFactor?: boolean } = {},
): Promise<Member> {
  const { auth } = servicesOf(context);
  const viewer = await auth.getViewer(request);
  if (viewer?.role) {
    // ADMIN_2FA=required: a member who signs in with a password works only once two-factor is on.
    if (!options.allowWithoutTwoFactor && (await auth.lacksRequiredTwoFactor(viewer))) {
      throw redirect(SECURITY_PATH, { headers: { "Cache-Control": NO_STORE } });
    }
    const role = typeof needed === "string" ? needed : requiredRoleOf(needed);
    if (!hasRole(viewer.role, role)) throw forbidden(viewer.role, role);
    return viewer as Member;
  }
  const url = new URL(request.url);
  const origin = url.pathname + url.search;
  throw redirect(`${href("/admin/login")}?redirectTo=${encodeURIComponent(origin)}`, { headers: { "Cache-Control": NO_STORE } });
}

/** The signed-in admin of this request (`requireRole(…, "admin")`): sponsors and settings. */
export function requireAdmin(request: Request, context: RequestContext, options: { allowWithoutTwoFactor?: boolean } = {}): Promise<Member> {
  return requireRole(request, context, "admin", options);
}

/** The answer to a member whose role does not reach: a 403 page naming their role and the one needed. */
function forbidden(role: Role, needed: Role) {
  return data(
    { code: "role_forbidden", message: t.roles.forbidden(t.roles.names[role], needed) },
    { status: 403, headers: { "Cache-Control": NO_STORE } },
  );
}

/**
 * The newsroom member calling the API with at least the role `needed` (a role, or the route's `handle`, whose facts
 * say it); anyone else gets, as JSON, 401 `unauthorized` (no session), 403 `forbidden` (an account with no role) or
 * 403 `role_forbidden` (a role too low).
 */
export async function requireRoleApi(request: Request, context: RequestContext, needed: Role | RouteHandle): Promise<Member> {
  const { auth } = servicesOf(context);
  const viewer = await auth.getViewer(request);
  if (!viewer) throw apiError(401, "unauthorized", t.api.loginRequired);
  if (!viewer.role) throw apiError(403, "forbidden", t.api.adminOnly);
  if (await auth.lacksRequiredTwoFactor(viewer)) throw apiError(403, "two_factor_required", t.auth.twoFactor.required);
  if (!hasRole(viewer.role, typeof needed === "string" ? needed : requiredRoleOf(needed))) {
    throw apiError(403, "role_forbidden", t.roles.forbiddenApi(t.roles.names[viewer.role]));
  }
  return viewer as Member;
}

/**
 * The GET of a route that only takes POST: 405, once the caller is known to have the route's role (401 / 403
 * otherwise, as every route refuses who may not use it).
 */
export async function postOnlyLoader(request: Request, context: RequestContext, handle: RouteHandle): Promise<Response> {
  try {
    await requireRoleApi(request, context, handle);
    return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST"));
  } catch (error) {
    return toApiError(error, request, servicesOf(context).log);
  }
}

/**
 * The role the requested page asks for, from the route table on the context (its route's facts); admin when the
 * table is absent or the path matches nothing. What the newsroom layout's middleware checks before any child runs.
 */
export function roleOfRequest(request: Request, context: RequestContext): Role {
  const table = context.get(routeTableContext);
  const pathname = new URL(request.url).pathname.replace(/\.data$/, "");
  return table?.match(pathname)?.route.facts.role ?? "admin";
}

/** The page where a member turns two-factor sign-in on or off. */
export const SECURITY_PATH = href("/admin/security");

/** What a page shows differently to the newsroom, from one lookup of the request's viewer. */
export interface NewsroomAccess {
  /** A signed-in member (two-factor or not): sees read counts. */
  admin: boolean;
  /**
   * A member who may use the newsroom (two-factor on when required) and whose role sees drafts, stories in review and
   * scheduled news (SEES_UNPUBLISHED in app/lib/roles.ts: every role; the banners that say who sees them follow it).
   */
  newsroom: boolean;
  /** The member's role (null: a reader, or an account with no role). */
  role: Role | null;
}

/**
 * Whether this request is a newsroom member's, and whether that member may use the newsroom. Never throws or
 * redirects; readers (no session cookie) get false for both at no cost.
 */
export async function newsroomAccess(request: Request, context: RequestContext): Promise<NewsroomAccess> {
  const { auth } = servicesOf(context);
  const viewer = await auth.getViewer(request);
  if (!viewer?.role) return { admin: false, newsroom: false, role: null };
  return { admin: true, newsroom: seesUnpublished(viewer.role) && (await mayUseNewsroom(viewer, auth)), role: viewer.role };
}

/** Whether this request is a member's who may use the newsroom (see `newsroomAccess`). */
export async function isNewsroomViewer(request: Request, context: RequestContext): Promise<boolean> {
  return (await newsroomAccess(request, context)).newsroom;
}

/** `isNewsroomViewer` outside React Router (the open pages' event stream, server/event-streams.ts). */
export async function isNewsroomMember(auth: AuthService, request: Request): Promise<boolean> {
  const viewer = await auth.getViewer(request);
  return Boolean(viewer?.role && seesUnpublished(viewer.role) && (await mayUseNewsroom(viewer, auth)));
}

function mayUseNewsroom(viewer: Viewer, auth: Pick<AuthService, "lacksRequiredTwoFactor">): Promise<boolean> {
  return auth.lacksRequiredTwoFactor(viewer).then((lacks) => !lacks);
}

/**
 * Who makes a change: a newsroom `member` (the routes pass the request's member: `memberActor`), whose role decides
 * what they may do (the rules below), or the site's own code (`system`, named by the caller: the trash's purge, the
 * bench, the tests), which acts with every right and records no user id (the change's "who" stays empty).
 */
export type Actor = { kind: "member"; userId: string; role: Role } | { kind: "system"; name: string };

/** The request's member as the actor of a change. */
export function memberActor(member: Pick<Member, "userId" | "role">): Actor {
  return { kind: "member", userId: member.userId, role: member.role };
}

/** The site's own code as the actor of a change (every right); `name` says which code it is. */
export function systemActor(name: string): Actor {
  return { kind: "system", name };
}

/** The user id a change is recorded under (who saved, owns, deleted, sent); null for the site's own code. */
export const actorIdOf = (actor: Actor): string | null => (actor.kind === "member" ? actor.userId : null);

/** A reporter (a member below editor) making the change; null for editors, admins and the site's own code. */
export function reporterOf(actor: Actor): { userId: string; role: Role } | null {
  return actor.kind === "member" && !canPublish(actor.role) ? actor : null;
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

/**
 * The newsroom list's bulk actions (publish, unpublish, delete, restore from or erase in the Lixeira) on anyone's
 * stories: editors and admins (and the site's own code) only.
 */
export function requireMayActInBulk(actor: Actor, action: BulkAction) {
  if (!reporterOf(actor)) return;
  const deleting = action === "delete" || action === "erase";
  throw new RoleForbiddenError(deleting ? "delete_forbidden" : "publish_forbidden", deleting ? t.roles.deleteForbidden : t.roles.publishForbidden);
}

/** Bringing back an older version of a story: editors and admins (and the site's own code) only. */
export function requireMayRestore(actor: Actor) {
  if (reporterOf(actor)) throw new RoleForbiddenError("restore_forbidden", t.roles.restoreForbidden);
}

/** "Devolver ao repórter": who `mayReturn` (editors and admins) and the site's own code. */
export function requireMayReturn(actor: Actor) {
  if (actor.kind === "member" && !mayReturn(actor.role)) throw new RoleForbiddenError("return_forbidden", t.review.returnForbidden);
}

/**
 * Who may change a story's live coverage (start, end, the scoreboard, its updates): editors and admins (and the
 * site's own code) any story; a reporter only the stories they created (whatever their status: a reporter covers
 * their own match after it is published).
 */
export function requireMayCover(actor: Actor, story: Pick<NewsRow, "owner_id">) {
  const reporter = reporterOf(actor);
  if (reporter && story.owner_id !== reporter.userId) throw new RoleForbiddenError("story_not_yours", t.roles.notOwnStory);
}

/** Sending a Web Push alert (a story, a live update): who `mayAlert` (editors and admins) and the site's own code. */
export function requireMayAlert(actor: Actor) {
  if (actor.kind === "member" && !mayAlert(actor.role)) throw new RoleForbiddenError("alert_forbidden", t.deskAlerts.forbidden);
}

/** A member edits their own public profile; an admin, anyone's (403 `profile_not_yours` otherwise). */
export function requireMayEditProfile(editor: { userId: string; role: Role }, userId: string) {
  if (editor.userId !== userId && !hasRole(editor.role, "admin")) throw new AppError("profile_not_yours", t.profile.notYours, 403);
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

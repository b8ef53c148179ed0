import type { RoutePath } from "./route-paths.ts";

/**
 * The newsroom's roles, lowest first. Each includes what the ones before it may do:
 *
 * - `reporter` (Repórter): writes stories, edits their own (also once published or scheduled: a correction, live at
 *   once, the editors told), deletes their own drafts, sends a draft for review; never publishes, schedules or
 *   unpublishes unless an admin gave them "publica sem revisão" (`admins.publishes_without_review`); never highlights,
 *   signs as someone else, or touches another's story, the sponsors or the site's settings.
 * - `editor` (Editor): everything on any story (publish, schedule, unpublish, delete, restore a revision).
 * - `admin` (Administrador): everything, including sponsors and the media store connection.
 *
 * An account with no role is not part of the newsroom (the SPEC's "Usuário registrado, mas não autorizado como
 * admin."). The server decides every permission from the role stored for the account (app/.server/admins/), with the
 * rules of app/.server/auth/permissions.server.ts; this module is the browser's view of them, what the drawer, the
 * forms and the buttons read to hide what a role cannot do (the server refuses it anyway).
 */
export type Role = "reporter" | "editor" | "admin";

export const ROLES: readonly Role[] = ["reporter", "editor", "admin"];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** Whether `role` (null: no role) may do what `needed` may. */
export function hasRole(role: Role | null | undefined, needed: Role): boolean {
  return role != null && ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/**
 * The lowest role that sees the stories readers do not (drafts, stories in review, scheduled ones) on the article
 * page, in the lists and through the API: from it up, every member sees them (`newsroomAccess` in permissions.server.ts
 * reads it). Who may change such a story is narrower (`mayChangeStory`). The words that say who sees one (the
 * article's banners, the news form's messages: `t.article.whoSeesUnpublished`) are chosen by it too.
 */
export const SEES_UNPUBLISHED: Role = "reporter";

/** Whether this role sees the stories readers do not (see SEES_UNPUBLISHED). */
export function seesUnpublished(role: Role | null | undefined): boolean {
  return hasRole(role, SEES_UNPUBLISHED);
}

/** Whether this role may publish, schedule or unpublish, and change any story (editors and admins). */
export function canPublish(role: Role | null | undefined): boolean {
  return hasRole(role, "editor");
}

/**
 * Whether the pages offer this member "Editar" and "Excluir" on a story: editors and admins on any; a reporter on
 * their own draft or story in review (`ownerId` is sent for unpublished stories alone; the article page says `mine`
 * for a reporter's own published story). The server decides again (app/.server/auth/permissions.server.ts); this only hides what
 * it would refuse.
 */
export function mayChangeStory(
  viewer: { role: Role | null | undefined; userId: string | null | undefined },
  story: { status: string; ownerId?: string | null | undefined },
): boolean {
  if (!viewer.role) return false;
  if (canPublish(viewer.role)) return true;
  return (story.status === "draft" || story.status === "review") && Boolean(story.ownerId) && story.ownerId === viewer.userId;
}

/** Whether this role may return a story in review to its reporter ("Devolver ao repórter"): editors and admins. */
export function mayReturn(role: Role | null | undefined): boolean {
  return canPublish(role);
}

/** Whether this role may send readers a Web Push alert (a story, a live update): editors and admins. */
export function mayAlert(role: Role | null | undefined): boolean {
  return canPublish(role);
}

/**
 * The newsroom menu's pages (the admin drawer) and the lowest role that sees each: the role each page's route asks
 * for in its facts (`handle.role`, app/lib/route-facts.ts; tests/unit/menu-roles.test.ts holds them equal). Each a
 * path of app/routes.ts (`RoutePath`: the drawer's links are these keys).
 */
export const MENU_ROLES = {
  "/add-news": "reporter",
  "/news-list": "reporter",
  "/SponsorManager": "admin",
  "/redacao": "editor",
  "/capa": "editor",
  "/times": "editor",
  "/equipe": "admin",
  "/perfil": "reporter",
  "/secoes": "admin",
  "/admin/security": "reporter",
} as const satisfies Partial<Record<RoutePath, Role>>;

/** A page of the newsroom menu. */
export type MenuPath = keyof typeof MENU_ROLES;

/** Whether the menu shows this role (null: no role) the link to `path`. */
export function seesMenuItem(role: Role | null | undefined, path: MenuPath): boolean {
  return hasRole(role, MENU_ROLES[path]);
}

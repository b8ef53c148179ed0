import { isRole, type Role } from "./roles.ts";

/**
 * What the server must know about a route before React Router sees its request, declared by the route itself (its
 * module's `handle`): whether the page cache may answer it for readers without a session, which query parameters it
 * reads, and whether its requests may carry a file. server/route-table.ts reads these from the build; a route that
 * declares nothing stops the server at start (and fails tests/unit/route-facts.test.ts).
 */
export interface RouteFacts {
  /**
   * "page": a public page, document and `.data`, shared by every reader without a session; "file": a public file
   * (a feed, a sitemap) shared the same way; false: never answered from the cache.
   */
  cache: "page" | "file" | false;
  /**
   * The query parameters a cached route reads: the values each takes (any other value is the page without it), or
   * "cursor" (a list cursor: base64url of a date and an id). Every other parameter is dropped from the cache key
   * and from the render.
   */
  params?: Readonly<Record<string, readonly string[] | "cursor">>;
  /** Whether its requests may carry a file: streamed by the upload parser (media limits) instead of the 32 KiB form cap. */
  uploads: boolean;
  /**
   * The lowest newsroom role (app/lib/roles.ts) that may use what the route guards: a newsroom page's loader and
   * action, an API route's writes. The newsroom layout's guard and the routes' own guards read it from here
   * (`requireRole(request, context, handle)`); a guarded route that says nothing is for admins only. What a role
   * may do to one story (its own draft, not another's) is decided by the story's rules on top of this.
   */
  role?: Role;
}

export interface RouteHandle {
  routeFacts: RouteFacts;
}

/** The `handle` of a route module: `export const handle = routeFacts({ cache: "page", uploads: false })`. */
export function routeFacts(facts: RouteFacts): RouteHandle {
  if (facts.role !== undefined && !isRole(facts.role)) throw new Error(`Unknown role in route facts: ${String(facts.role)}`);
  return { routeFacts: facts };
}

/** The role a route asks for (its facts' `role`; admin when it says none). */
export function requiredRoleOf(handle: RouteHandle | undefined): Role {
  return handle?.routeFacts.role ?? "admin";
}

/** A route that is neither cached nor takes files (the newsroom's pages, the API without uploads, resources). */
export const PRIVATE_ROUTE: RouteHandle = routeFacts({ cache: false, uploads: false });

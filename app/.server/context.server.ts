import { createContext, type RouterContextProvider } from "react-router";
import type { AppServices } from "./app.server.ts";
import type { RouteTable } from "#server/route-table.ts";
import type { StylesheetInliner } from "./http/inline-stylesheets.server.ts";

export type { AppServices };

/**
 * The running application's services, set by the server on every request's context (`getLoadContext` in
 * server/app.ts, and the page cache's own renders). Loaders, actions, middleware, guards and the entry's
 * `handleRequest`/`handleError` read them from there; nothing keeps them in a module variable.
 */
export const servicesContext = createContext<AppServices>();

/**
 * The site's route table (server/route-table.ts), set by the server on every request's context: the newsroom layout's
 * guard reads the role the requested route asks for from it. Null outside the server (tests calling a loader).
 */
export const routeTableContext = createContext<Pick<RouteTable, "match"> | null>(null);

/**
 * The build's stylesheets, written into each rendered document's head (app/.server/http/inline-stylesheets.server.ts).
 * Set by the production server; null in development and wherever a page is rendered without it (links stay links).
 */
export const stylesheetsContext = createContext<StylesheetInliner | null>(null);

/** The context React Router hands to loaders, actions and middleware (read-only for them). */
export type RequestContext = Readonly<RouterContextProvider>;

/**
 * The services of this request: `const { news, log } = servicesOf(context)`. Throws when the server did not set
 * them (a request handled outside server/app.ts).
 */
export function servicesOf(context: RequestContext): AppServices {
  return context.get(servicesContext);
}

import { matchRoutes, type RouteObject } from "react-router";
import { boundedMemo } from "#app/lib/bounded-memo.ts";
import { pageOfPath } from "#app/lib/data-path.ts";
import type { RouteFacts } from "#app/lib/route-facts.ts";

/**
 * A route of the site's tree, as React Router's server build has it (`routeTreeOfServerBuild`) and as app/routes.ts
 * gives it inside the root route (`routeTreeOfConfig`), with whatever else the caller keeps on it (`T`: the module's
 * `handle`, the file).
 */
export type RouteNode<T = unknown> = T & {
  id: string;
  path?: string | undefined;
  index?: boolean | undefined;
  caseSensitive?: boolean | undefined;
  children?: RouteNode<T>[] | undefined;
};

/** A route that answers URLs: its id, the ids of the routes around it (outermost first), its whole path pattern ("" for the home). */
export interface RouteDescription<T = unknown> {
  id: string;
  parents: string[];
  path: string;
  route: RouteNode<T>;
}

/**
 * The one walk of the route tree: every route that answers URLs, in the tree's order. A layout (the root, the
 * newsroom's guard) answers none of its own: the routes inside it do. What the server's route table, the
 * authorization test and the tests' route table are made of.
 */
export function describeRoutes<T>(tree: RouteNode<T>[], parents: string[] = [], prefix = ""): RouteDescription<T>[] {
  return tree.flatMap((route) => {
    const path = [prefix, route.path ?? ""].filter(Boolean).join("/");
    const own = !route.children?.length && (route.path !== undefined || route.index) ? [{ id: route.id, parents, path, route }] : [];
    return [...own, ...describeRoutes(route.children ?? [], [...parents, route.id], path)];
  });
}

/** A route of React Router's server build (a flat manifest with parent ids), as the tree needs it. */
interface ServerBuildRoute {
  id: string;
  parentId?: string | undefined;
  path?: string | undefined;
  index?: boolean | undefined;
  caseSensitive?: boolean | undefined;
  module: { handle?: unknown };
}

/** The build's routes as a tree (the manifest's order, as React Router's request handler builds its own), with each module's `handle`. */
export function routeTreeOfServerBuild(manifest: Record<string, ServerBuildRoute | undefined>): RouteNode<{ handle: unknown }>[] {
  const byParent = new Map<string, ServerBuildRoute[]>();
  for (const route of Object.values(manifest)) {
    if (!route) continue;
    const siblings = byParent.get(route.parentId ?? "") ?? [];
    siblings.push(route);
    byParent.set(route.parentId ?? "", siblings);
  }
  const childrenOf = (parentId: string): RouteNode<{ handle: unknown }>[] =>
    (byParent.get(parentId) ?? []).map((route) => ({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      handle: route.module.handle,
      children: childrenOf(route.id),
    }));
  return childrenOf("");
}

/** An entry of app/routes.ts (`RouteConfigEntry`). */
interface RouteConfigNode {
  id?: string | undefined;
  file: string;
  path?: string | undefined;
  index?: boolean | undefined;
  caseSensitive?: boolean | undefined;
  children?: RouteConfigNode[] | undefined;
}

/**
 * app/routes.ts as the tree the build makes of it: inside the root route (id "root", path ""), each route's id its
 * own or its file without the extension, as React Router names them.
 */
export function routeTreeOfConfig(entries: RouteConfigNode[], rootFile = "root.tsx"): RouteNode<{ file: string }>[] {
  const node = (entry: RouteConfigNode): RouteNode<{ file: string }> => ({
    id: entry.id ?? entry.file.replace(/\.[a-z0-9]+$/i, ""),
    file: entry.file,
    path: entry.path,
    index: entry.index,
    caseSensitive: entry.caseSensitive,
    children: entry.children?.map(node),
  });
  return [{ id: "root", path: "", file: rootFile, children: entries.map(node) }];
}

/** A route as the table keeps it: its description, its whole pattern with a leading slash, and its facts. */
export interface TableRoute {
  id: string;
  parents: string[];
  pattern: string;
  facts: RouteFacts;
  segments: string[];
}

/** What a URL path is: its route and its canonical spelling (the route's own case, no trailing or doubled slash). */
export interface PathMatch {
  route: TableRoute;
  canonicalPath: string;
}

/** The facts a route module declares, or an error naming the route that declares none. */
export function factsOf(id: string, handle: unknown): RouteFacts {
  const facts = (handle as { routeFacts?: RouteFacts } | undefined)?.routeFacts;
  if (!facts || (facts.cache !== false && facts.cache !== "page" && facts.cache !== "file") || typeof facts.uploads !== "boolean") {
    throw new Error(
      `Route "${id}" does not say whether it is a public cacheable page or takes uploads: export \`handle = routeFacts({…})\` (app/lib/route-facts.ts).`,
    );
  }
  return facts;
}

const toRouteObjects = (tree: RouteNode[]): RouteObject[] =>
  tree.map((route) =>
    route.index
      ? { id: route.id, path: route.path, index: true, caseSensitive: route.caseSensitive }
      : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: route.children && toRouteObjects(route.children) },
  );

/** The route React Router matches a path to, and the optional parameters the path has. */
interface RouteOfShape {
  id: string;
  present: Set<string>;
}

/** Stands for a path segment that is no literal segment of any route (it matches what any such segment matches). */
const ANY_SEGMENT = "\u0000";
const LITERAL = /^[^:*?%]+\??$/;
const PARAM = /^:[\w-]+\??$/;
const NOT_ASCII = /[^\u0000-\u007f]/;

/**
 * The site's routes with their facts (from the build; in tests, from app/routes.ts and the modules), and the matching
 * the page cache and the body limit need before React Router runs: React Router's own (`matchRoutes`: its ranking,
 * literal segments in any case unless a route says `caseSensitive`), and the canonical spelling of the path (the
 * route's literals, no empty segment) so the cache can redirect the variants.
 *
 * matchRoutes flattens and ranks the whole tree on every call (about 0.5 ms for this site's routes): a memo of paths
 * answers the common ones, and a path's shape (each segment that is no route's literal made one placeholder) stands
 * for the rest, since two paths of one shape match the same route (as `tests/unit/route-table.test.ts` checks against
 * matchRoutes itself): `/article/<any id>` costs one matchRoutes.
 */
export function createRouteTable(tree: RouteNode<{ handle?: unknown }>[]) {
  const routes: TableRoute[] = describeRoutes(tree).map(({ id, parents, path, route }) => ({
    id,
    parents,
    pattern: `/${path.replace(/^\/+/, "")}`,
    facts: factsOf(id, route.handle),
    segments: path.split("/").filter(Boolean),
  }));
  const byId = new Map(routes.map((route) => [route.id, route]));
  const routeObjects = toRouteObjects(tree);
  const literals = new Set(
    routes.flatMap((route) => route.segments.filter((segment) => LITERAL.test(segment)).map((segment) => segment.replace(/\?$/, "").toLowerCase())),
  );
  // A segment of another kind (`:id.json`, `x*`) makes its text matter beyond "which literal, if any": no shapes then.
  const plain = routes.every((route) =>
    route.segments.every(
      (segment, index) => LITERAL.test(segment) || PARAM.test(segment) || (segment === "*" && index === route.segments.length - 1),
    ),
  );
  // A shape's key: its segments joined by "/" (a decoded segment's own slashes are %2F again, so none has one).
  const routeOfShape = plain
    ? boundedMemo(
        (key) =>
          viaMatchRoutes(
            key
              .split("/")
              .map((text) => (text === ANY_SEGMENT ? "%00" : encodeURIComponent(text)))
              .join("/"),
          ),
        2000,
      )
    : null;

  /** The route of `parts` (a path's non-empty segments) and which of its optional parameters are there, by React Router. */
  function routeOf(parts: string[]): RouteOfShape | null {
    if (!routeOfShape) return viaMatchRoutes(parts.join("/"));
    // What matchRoutes compares: each segment decoded (an encoded slash stays %2F), or all raw when one fails to decode.
    let texts = parts;
    try {
      texts = parts.map((part) => (part.includes("%") ? decodeURIComponent(part).replace(/\//g, "%2F") : part));
    } catch {}
    // Kept: a literal of a route in any case, and any text beyond ASCII (whose case folding is the regex's own).
    return routeOfShape(texts.map((text) => (literals.has(text.toLowerCase()) || NOT_ASCII.test(text) ? text : ANY_SEGMENT)).join("/"));
  }

  function viaMatchRoutes(path: string): RouteOfShape | null {
    const leaf = matchRoutes(routeObjects, { pathname: `/${path}` })?.at(-1);
    if (!leaf?.route.id || !byId.has(leaf.route.id)) return null;
    const present = new Set(Object.keys(leaf.params).filter((name) => leaf.params[name] !== undefined));
    return { id: leaf.route.id, present };
  }

  function matchUncached(pathname: string): PathMatch | null {
    // "/news-list/" and "//news-list" are the same page spelled differently: matched, canonical without the empties.
    const parts = pathname.split("/").filter(Boolean);
    const found = routeOf(parts);
    const route = found && byId.get(found.id);
    if (!route) return null;
    const canonical: string[] = [];
    let index = 0;
    for (const segment of route.segments) {
      if (segment === "*") {
        canonical.push(...parts.slice(index));
        index = parts.length;
      } else if (segment.startsWith(":")) {
        if (!segment.endsWith("?") || found.present.has(segment.slice(1, -1))) canonical.push(parts[index++]!);
      } else {
        const literal = segment.replace(/\?$/, "");
        // An optional literal is there when the next segment is it (in any case, encoded or not).
        if (segment.endsWith("?") && safeDecode(parts[index] ?? "").toLowerCase() !== literal.toLowerCase()) continue;
        canonical.push(literal);
        index++;
      }
    }
    return { route, canonicalPath: `/${canonical.join("/")}` };
  }

  /** The route of a URL path (percent-encoded, without the query) and its canonical spelling, or null (made-up paths do not grow it without bound). */
  const match = boundedMemo(matchUncached, 2000);

  return {
    routes,
    match,
    /** Whether requests to this path may carry a file (its route says `uploads: true`; `.data` requests count as the page's). */
    takesUploads(pathname: string): boolean {
      return match(pageOfPath(pathname))?.route.facts.uploads ?? false;
    },
  };
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export type RouteTable = ReturnType<typeof createRouteTable>;

import { pageOfPath } from "#app/lib/data-path.ts";
import type { RouteFacts } from "#app/lib/route-facts.ts";

/** A route as the table needs it: its id, its whole path pattern ("" for the home) and its module's `handle`. */
export interface RouteDescription {
  id: string;
  /** Ids of the routes around it, outermost first ("root", a layout). */
  parents: string[];
  path: string;
  handle: unknown;
}

type Segment = { kind: "literal"; text: string; lower: string } | { kind: "param"; name: string; optional: boolean } | { kind: "splat" };

export interface TableRoute {
  id: string;
  parents: string[];
  pattern: string;
  facts: RouteFacts;
  segments: Segment[];
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

function parse(pattern: string): Segment[] {
  return pattern
    .split("/")
    .filter(Boolean)
    .map((part): Segment => {
      if (part === "*") return { kind: "splat" };
      if (part.startsWith(":")) return { kind: "param", name: part.replace(/^:|\?$/g, ""), optional: part.endsWith("?") };
      return { kind: "literal", text: part, lower: part.toLowerCase() };
    });
}

/** More literal segments first, optional parameters after required ones, the catch-all last (as React Router ranks them). */
function rank(route: TableRoute): number {
  let score = 0;
  for (const segment of route.segments) score += segment.kind === "literal" ? 10 : segment.kind === "param" ? (segment.optional ? 2 : 3) : -100;
  return score;
}

/**
 * The site's routes with their facts (from the build: `fromServerBuild`; in tests, from app/routes.ts and the modules),
 * and the matching the page cache and the body limit need before React Router runs. Literal segments match in any
 * case, as React Router's do; the match says the canonical spelling so the cache can redirect the variants.
 */
export function createRouteTable(descriptions: RouteDescription[]) {
  const routes: TableRoute[] = descriptions
    .map((description) => ({
      id: description.id,
      parents: description.parents,
      pattern: `/${description.path.replace(/^\/+/, "")}`,
      facts: factsOf(description.id, description.handle),
      segments: parse(description.path),
    }))
    .sort((a, b) => rank(b) - rank(a));
  const memo = new Map<string, PathMatch | null>();

  function matchUncached(pathname: string): PathMatch | null {
    // "/news-list/" and "//news-list" are the same page spelled differently: matched, canonical without the empties.
    const segments = pathname.split("/").filter(Boolean);
    for (const route of routes) {
      const canonical: string[] = [];
      let index = 0;
      let matched = true;
      for (const segment of route.segments) {
        const part = segments[index];
        if (segment.kind === "splat") {
          canonical.push(...segments.slice(index));
          index = segments.length;
          break;
        }
        if (part === undefined) {
          if (segment.kind === "param" && segment.optional) continue;
          matched = false;
          break;
        }
        if (segment.kind === "literal") {
          if (part.toLowerCase() !== segment.lower) {
            matched = false;
            break;
          }
          canonical.push(segment.text);
        } else {
          canonical.push(part);
        }
        index++;
      }
      if (matched && index === segments.length) return { route, canonicalPath: `/${canonical.join("/")}` };
    }
    return null;
  }

  /** The route of a URL path (percent-encoded, without the query) and its canonical spelling, or null. */
  function match(pathname: string): PathMatch | null {
    let found = memo.get(pathname);
    if (found === undefined) {
      found = matchUncached(pathname);
      // Made-up paths must not grow it without bound.
      if (memo.size >= 2000) memo.clear();
      memo.set(pathname, found);
    }
    return found;
  }

  return {
    routes,
    match,
    /** Whether requests to this path may carry a file (its route says `uploads: true`; `.data` requests count as the page's). */
    takesUploads(pathname: string): boolean {
      return match(pageOfPath(pathname))?.route.facts.uploads ?? false;
    },
  };
}

export type RouteTable = ReturnType<typeof createRouteTable>;

/** The build's routes (React Router's server build: a flat manifest with parent ids), as the table's descriptions. */
export function routesOfServerBuild(
  manifest: Record<
    string,
    { id: string; parentId?: string | undefined; path?: string | undefined; index?: boolean | undefined; module: { handle?: unknown } } | undefined
  >,
): RouteDescription[] {
  const descriptions: RouteDescription[] = [];
  // Layouts (the root, the newsroom's guard) answer no URL of their own: the routes inside them do.
  const layouts = new Set(Object.values(manifest).map((route) => route?.parentId));
  for (const route of Object.values(manifest)) {
    if (!route || layouts.has(route.id) || (route.path === undefined && !route.index)) continue;
    const parents: string[] = [];
    const paths: string[] = [route.path ?? ""];
    for (
      let parent = route.parentId ? manifest[route.parentId] : undefined;
      parent;
      parent = parent.parentId ? manifest[parent.parentId] : undefined
    ) {
      parents.unshift(parent.id);
      paths.unshift(parent.path ?? "");
    }
    descriptions.push({ id: route.id, parents, path: paths.filter(Boolean).join("/"), handle: route.module.handle });
  }
  return descriptions;
}

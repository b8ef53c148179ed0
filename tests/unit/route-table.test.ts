import { matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { createRouteTable, describeRoutes, type RouteNode, routeTreeOfServerBuild } from "#server/route-table.ts";
import { siteRouteTable, siteRouteTree } from "#tests/factories/route-table.ts";

const FACTS = { routeFacts: { cache: false, uploads: false } };

/** What React Router itself matches `path` to (the innermost route's id), on the path without its empty segments. */
function routerMatch(tree: RouteNode[], path: string): string | undefined {
  const objects = (nodes: RouteNode[]): RouteObject[] =>
    nodes.map((node) =>
      node.index
        ? { id: node.id, index: true, caseSensitive: node.caseSensitive }
        : { id: node.id, path: node.path, caseSensitive: node.caseSensitive, children: node.children && objects(node.children) },
    );
  return matchRoutes(objects(tree), { pathname: `/${path.split("/").filter(Boolean).join("/")}` })?.at(-1)?.route.id;
}

describe("the route table (server/route-table.ts)", () => {
  it("matches every path to the route React Router matches it to, shapes and memo included", async () => {
    // React Router warns of each malformed path it is given (the table itself gives it none).
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    onTestFinished(() => warn.mockRestore());
    const tree = await siteRouteTree();
    const routes = await siteRouteTable();
    const paths = [
      "/",
      "/news-list",
      "/NEWS-LIST/",
      "/news%2Dlist",
      "/news%2dlist/x",
      "/article/a1",
      "/article/a1/titulo",
      "/article/a1/titulo/mais",
      "/article/%E0%A4%A/titulo",
      "/article/news-list",
      "/article/%C3%A9",
      "/article/caf%C3%A9/news-list",
      "/article/a%2Fb",
      "/categoria/volei",
      "/categoria/volei/rss.xml",
      "/categoria/rss.xml",
      "/categoria/volei/RSS.XML",
      "/time/sao-paulo/rss.xml",
      "/rss/destaques.xml",
      "/Rss/Destaques.Xml",
      "/rss/outro.xml",
      "/sitemaps/news.xml",
      "/edit-news/1",
      "/edit-news/1/historico",
      "/edit-news/1/HISTORICO",
      "/edit-news/historico",
      "/api/news/1/updates/2",
      "/api/news/updates/updates",
      "/api/news/1/updates/2/3",
      "/api/auth/callback/google",
      "/media/2024/05/x.webp",
      "/media",
      "/admin",
      "/admin/login/x",
      "/ádmin/login",
      "/admin/%6Cogin",
      "/qualquer/coisa",
      "//userlicence",
      "/%00/%",
    ];
    // Twice: the second time from the memo (and the first time's shapes).
    for (const round of [1, 2]) {
      for (const path of paths) expect(routes.match(path)?.route.id, `${path} (${round})`).toBe(routerMatch(tree, path));
    }
    // Paths of one shape (new ids) after the memo's.
    for (let i = 0; i < 50; i++) {
      for (const path of [`/article/id${i}`, `/article/id${i}/s${i}`, `/x${i}/y`, `/edit-news/${i}/historico`]) {
        expect(routes.match(path)?.route.id, path).toBe(routerMatch(tree, path));
      }
    }
  });

  it("says the canonical spelling: the route's literals, the path's own parameters", async () => {
    const routes = await siteRouteTable();
    // An encoded literal is that literal to React Router (the page it renders): the cache redirects it.
    expect(routes.match("/news%2Dlist")).toMatchObject({ route: { id: "routes/site/news-list" }, canonicalPath: "/news-list" });
    expect(routes.match("/Article/Caf%C3%A9/T%C3%ADtulo//")?.canonicalPath).toBe("/article/Caf%C3%A9/T%C3%ADtulo");
    expect(routes.match("/CATEGORIA/Volei/Rss.Xml")).toMatchObject({ route: { id: "rss-category" }, canonicalPath: "/categoria/Volei/rss.xml" });
    expect(routes.match("/Media//2024/X.webp")?.canonicalPath).toBe("/media/2024/X.webp");
    expect(routes.match("/")?.canonicalPath).toBe("/");
  });

  it("matches a route that says caseSensitive only in its own case", () => {
    const routes = createRouteTable([
      {
        id: "root",
        path: "",
        children: [
          { id: "exact", path: "Exato/:id?", caseSensitive: true, handle: FACTS },
          { id: "any", path: "*", handle: FACTS },
        ],
      },
    ]);
    expect(routes.match("/Exato")).toMatchObject({ route: { id: "exact" }, canonicalPath: "/Exato" });
    expect(routes.match("/Exato/1/")).toMatchObject({ route: { id: "exact" }, canonicalPath: "/Exato/1" });
    expect(routes.match("/exato")).toMatchObject({ route: { id: "any" }, canonicalPath: "/exato" });
  });

  it("matches routes whose segments are more than a literal or a parameter (no shapes then)", () => {
    const tree: RouteNode<{ handle?: unknown }>[] = [
      {
        id: "root",
        path: "",
        children: [
          { id: "json", path: "dados/:nome.json", handle: FACTS },
          { id: "item", path: "dados/:nome", handle: FACTS },
          { id: "any", path: "*", handle: FACTS },
        ],
      },
    ];
    const routes = createRouteTable(tree);
    for (const path of ["/dados/a.json", "/dados/b.json", "/dados/a.txt", "/dados/a.json/x", "/DADOS/A.JSON"]) {
      expect(routes.match(path)?.route.id, path).toBe(routerMatch(tree, path));
    }
    expect(routes.match("/dados/a.json")?.route.id).toBe("json");
  });

  it("reads the same routes from the server build's manifest as from app/routes.ts", async () => {
    const tree = await siteRouteTree();
    // The build's manifest: every route flat, with its parent's id, in the tree's order.
    const manifest: Record<string, { id: string; parentId?: string; path?: string; index?: boolean; module: { handle?: unknown } }> = {};
    const flat = (nodes: RouteNode<{ handle?: unknown }>[], parentId?: string) => {
      for (const node of nodes) {
        manifest[node.id] = { id: node.id, parentId, path: node.path, index: node.index, module: { handle: node.handle } };
        flat(node.children ?? [], node.id);
      }
    };
    flat(tree);
    const fromBuild = describeRoutes(routeTreeOfServerBuild(manifest));
    const fromConfig = describeRoutes(tree);
    expect(fromBuild.map(({ id, parents, path }) => ({ id, parents, path }))).toEqual(
      fromConfig.map(({ id, parents, path }) => ({ id, parents, path })),
    );
    expect(fromBuild.find((route) => route.id === "routes/admin/edit-news")).toMatchObject({
      parents: ["root", "routes/admin/guard"],
      path: "edit-news/:id",
    });
    // Layouts answer no URL of their own.
    expect(fromBuild.map((route) => route.id)).not.toContain("root");
    expect(fromBuild.map((route) => route.id)).not.toContain("routes/admin/guard");
    expect(fromBuild.find((route) => route.id === "routes/site/home")).toMatchObject({ parents: ["root"], path: "" });
  });
});

import { describe, expect, it } from "vitest";
import { createRouteTable, factsOf, type RouteNode } from "#server/route-table.ts";
import { siteRouteDescriptions, siteRouteTable } from "#tests/factories/route-table.ts";

describe("route facts (each route module's handle)", () => {
  it("every route of app/routes.ts says whether it is a cached page and whether it takes uploads", async () => {
    const descriptions = await siteRouteDescriptions();
    expect(descriptions.length).toBeGreaterThan(30);
    for (const route of descriptions) expect(() => factsOf(route.id, route.route.handle), route.id).not.toThrow();
  });

  it("a route that declares neither stops the table (and so the server's start)", () => {
    const root = (route: RouteNode<{ handle?: unknown }>) => [{ id: "root", path: "", children: [route] }];
    expect(() => createRouteTable(root({ id: "routes/site/nova", path: "nova", handle: undefined }))).toThrow(/routes\/site\/nova/);
    expect(() => createRouteTable(root({ id: "x", path: "x", handle: { routeFacts: { cache: "yes" } } }))).toThrow(/routeFacts/);
  });

  it("the public pages and files are cached; the newsroom's forms and the API's saves take uploads", async () => {
    const routes = await siteRouteTable();
    const cache = (path: string) => routes.match(path)?.route.facts.cache;
    expect(["/", "/news-list", "/article/a1", "/article/a1/titulo", "/categoria/volei", "/autor/ana", "/userLicence"].map(cache)).toEqual(
      Array(7).fill("page"),
    );
    expect(["/rss.xml", "/rss/destaques.xml", "/sitemap.xml", "/sitemaps/news.xml", "/robots.txt"].map(cache)).toEqual(Array(5).fill("file"));
    for (const path of ["/busca", "/add-news", "/admin/login", "/api/news", "/events", "/media/x.webp", "/edit-news/1", "/qualquer/coisa"]) {
      expect(cache(path), path).toBe(false);
    }
    for (const path of ["/add-news", "/add-news.data", "/edit-news/1", "/SponsorManager", "/api/news", "/api/news/1", "/api/sponsors/2"]) {
      expect(routes.takesUploads(path), path).toBe(true);
    }
    for (const path of ["/admin/login", "/edit-news/1/historico", "/api/reads", "/", "/api/auth/callback/google"]) {
      expect(routes.takesUploads(path), path).toBe(false);
    }
  });

  it("matches literal segments in any case and says the canonical spelling", async () => {
    const routes = await siteRouteTable();
    expect(routes.match("/News-List")).toMatchObject({ route: { id: "routes/site/news-list" }, canonicalPath: "/news-list" });
    expect(routes.match("/article/AbC/")?.canonicalPath).toBe("/article/AbC");
    expect(routes.match("//userlicence")?.canonicalPath).toBe("/userLicence");
    expect(routes.match("/edit-news/1/historico")?.route.id).toBe("routes/admin/news-history");
  });
});

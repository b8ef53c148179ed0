import { describe, expect, it } from "vitest";
import { MENU_ROLES, type MenuPath, ROLES, seesMenuItem } from "#app/lib/roles.ts";
import { siteRouteTable } from "#tests/factories/route-table.ts";

/**
 * The admin drawer shows each role the pages its route lets that role open, and no other: the menu's roles
 * (app/lib/roles.ts) are the routes' own (`handle.role`). The list of news is the readers' page, open to all.
 */
describe("the newsroom menu's roles", () => {
  it("each guarded page of the menu asks, in its route's facts, for the role the menu shows it to", async () => {
    const routes = await siteRouteTable();
    for (const [path, role] of Object.entries(MENU_ROLES)) {
      const route = routes.match(path)?.route;
      expect(route, path).toBeDefined();
      if (path === "/news-list") expect(route?.id).toBe("routes/site/news-list");
      else expect(route?.facts.role ?? "admin", path).toBe(role);
    }
  });

  it("a role sees its own items and those of the roles below it; an account with no role sees none", () => {
    const paths = Object.keys(MENU_ROLES) as MenuPath[];
    expect(paths.filter((path) => seesMenuItem("reporter", path))).toEqual(["/add-news", "/news-list", "/perfil", "/admin/security"]);
    expect(paths.filter((path) => seesMenuItem("editor", path))).toEqual([
      "/add-news",
      "/news-list",
      "/redacao",
      "/capa",
      "/times",
      "/perfil",
      "/admin/security",
    ]);
    expect(paths.every((path) => seesMenuItem("admin", path))).toBe(true);
    for (const role of [null, undefined]) expect(paths.some((path) => seesMenuItem(role, path))).toBe(false);
    expect(ROLES).toEqual(["reporter", "editor", "admin"]);
  });
});

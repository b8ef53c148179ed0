import type { RouteConfigEntry } from "@react-router/dev/routes";
import routeConfig from "#app/routes.ts";
import { createRouteTable, type RouteDescription } from "#server/route-table.ts";

/** Every route of app/routes.ts with its module's `handle`, as the server reads them from the build (same ids and paths). */
export async function siteRouteDescriptions(): Promise<RouteDescription[]> {
  const descriptions: RouteDescription[] = [];
  async function walk(entries: RouteConfigEntry[], parents: string[], prefix: string) {
    for (const entry of entries) {
      const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
      const path = [prefix, entry.path ?? ""].filter(Boolean).join("/");
      if (entry.path !== undefined || entry.index) {
        const module = (await import(/* @vite-ignore */ `#app/${entry.file}`)) as { handle?: unknown };
        descriptions.push({ id, parents: ["root", ...parents], path, handle: module.handle });
      }
      if (entry.children) await walk(entry.children, [...parents, id], path);
    }
  }
  await walk(await routeConfig, [], "");
  return descriptions;
}

/** The site's route table, built from app/routes.ts and the route modules (no build needed). */
export async function siteRouteTable() {
  return createRouteTable(await siteRouteDescriptions());
}

import routeConfig from "#app/routes.ts";
import { createRouteTable, describeRoutes, type RouteDescription, type RouteNode, routeTreeOfConfig } from "#server/route-table.ts";

type SiteRoute = RouteNode<{ file: string; handle?: unknown }>;

/** app/routes.ts as the build's tree (same ids and paths), with the `handle` of each module that answers URLs. */
export async function siteRouteTree(): Promise<SiteRoute[]> {
  const withHandles = (tree: RouteNode<{ file: string }>[]): Promise<SiteRoute[]> =>
    Promise.all(
      tree.map(async (route) => {
        if (route.children?.length) return { ...route, children: await withHandles(route.children) };
        const module = (await import(/* @vite-ignore */ `#app/${route.file}`)) as { handle?: unknown };
        return { ...route, handle: module.handle };
      }),
    );
  return withHandles(routeTreeOfConfig(await routeConfig));
}

/** Every route of app/routes.ts with its module's `handle`, as the server reads them from the build. */
export async function siteRouteDescriptions(): Promise<RouteDescription<{ file: string; handle?: unknown }>[]> {
  return describeRoutes(await siteRouteTree());
}

/** The site's route table, built from app/routes.ts and the route modules (no build needed). */
export async function siteRouteTable() {
  return createRouteTable(await siteRouteTree());
}

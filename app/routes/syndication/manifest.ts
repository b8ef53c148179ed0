import type { Route } from "./+types/manifest";
import { servicesOf } from "#app/.server/context.server.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { ONE_HOUR_CACHE } from "#app/lib/cache-headers.ts";

/** GET /manifest.webmanifest: lets phones add the site to the home screen, with its name, colours and icons. */
export function loader({ context }: Route.LoaderArgs) {
  const { site } = servicesOf(context).config;
  const manifest = {
    name: site.name,
    // Home screens show about 12 characters under the icon.
    short_name: site.name.length <= 15 ? site.name : site.name.split(/\s+/)[0],
    description: site.description,
    lang: "pt-BR",
    dir: "ltr",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#eef1f3",
    theme_color: "#0b5d3b",
    categories: ["news", "sports"],
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": ONE_HOUR_CACHE },
  });
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "file", uploads: false });

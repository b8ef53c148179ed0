import { index, type RouteConfig, route } from "@react-router/dev/routes";

/** Every URL of the site. Public paths keep the original product's spelling (e.g. /userLicence). */
export default [
  index("routes/site/home.tsx"),
  route("news-list", "routes/site/news-list.tsx"),
  route("article/:id", "routes/site/article.tsx"),
  route("userLicence", "routes/site/privacy.tsx"),

  route("media/*", "routes/resources/media.ts"),
  route("healthz", "routes/resources/healthz.ts"),

  route("*", "routes/site/not-found.tsx"),
] satisfies RouteConfig;

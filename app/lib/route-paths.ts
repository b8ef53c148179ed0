import type { Register } from "react-router";

/**
 * A path of app/routes.ts as `react-router typegen` lists them ("/news-list", "/article/:id/:slug?"): what React
 * Router's `href()` takes. Where `href` cannot run (the readers' service worker, the server's primary process, which
 * never loads React Router), a constant is spelled out and `satisfies RoutePath`: a renamed route fails tsc all the same.
 */
export type RoutePath = keyof Register["pages"];

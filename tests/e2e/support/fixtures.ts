/**
 * The Playwright entry point of the end-to-end suite: specs import `test` and `expect` from here, and the helpers
 * of the focused modules next to it (re-exported below, so one import line serves a spec).
 *
 * - `standardSite` (worker scope): one production server per worker, filled with a known data set
 *   (standard-site.ts). Tests that only read share it.
 * - `emptySite` (worker scope): a server on an empty database (no news, no sponsors).
 * - `demoSite` (worker scope): the quick-start demo content (SEED_DEMO=1, from the committed demo/media files).
 * - `launchSite` (test scope): starts extra sites for one test (failing database, env, deleted media…);
 *   every site it started is stopped when the test ends, pass or fail.
 *
 * Where the helpers live, one concern per module: pages.ts (a browser page), admin-session.ts (the admin and
 * signing in), news-api.ts (the JSON API), media-files.ts (files to upload), standard-site.ts (the standard data
 * set), smtp.ts (mail), oidc.ts (Google sign-in), faults.ts (failures); and, shared with the benchmarks, in
 * tests/factories: site.ts (starting servers), site-data.ts (a running site's data behind the server's back),
 * site-database.ts (SQLite or PostgreSQL), varnish.ts (a Varnish in front).
 */
import { test as base } from "@playwright/test";
import { type RunningSite, type SiteOptions, startSite } from "../../factories/site.ts";
import { type StandardSite, startStandardSite } from "./standard-site.ts";

export { expect } from "@playwright/test";
export { t } from "../../../app/i18n/newsroom.ts";
export * from "./admin-session.ts";
export * from "./media-files.ts";
export * from "./news-api.ts";
export * from "./pages.ts";
export * from "../../factories/site-data.ts";
export { siteQuery, TEST_DATABASE } from "../../factories/site-database.ts";
export * from "./standard-site.ts";

// -------------------------------------------------------------------------------------- fixtures

interface WorkerFixtures {
  standardSite: StandardSite;
  emptySite: RunningSite;
  /** The quick-start demo content (SEED_DEMO=1), seeded by the server at its first start. */
  demoSite: RunningSite;
}

interface TestFixtures {
  /** Starts a site for this test only; stopped automatically when the test ends. */
  launchSite: (options?: SiteOptions) => Promise<RunningSite>;
}

/**
 * A site of the worker's own (started once per worker, stopped when the worker ends), as a worker-scoped fixture:
 * `base.extend<Record<never, never>, { editorSite: RunningSite }>({ editorSite: siteOfTheWorker(NEWSROOM_SITE) })`.
 */
export function siteOfTheWorker(
  options: SiteOptions = {},
  timeout = 60_000,
): [(args: object, use: (site: RunningSite) => Promise<void>) => Promise<void>, { scope: "worker"; timeout: number }] {
  return [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright needs the destructuring
    async ({}, use: (site: RunningSite) => Promise<void>) => {
      const site = await startSite(options);
      try {
        await use(site);
      } finally {
        await site.stop();
      }
    },
    { scope: "worker", timeout },
  ];
}

/** The options of a site whose every test signs in: the per-address sign-in limit is kept out of the way. */
export const NEWSROOM_SITE: SiteOptions = { env: { LOGIN_RATE_LIMIT: "1000" } };

export const test = base.extend<TestFixtures, WorkerFixtures>({
  standardSite: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright needs the destructuring
    async ({}, use) => {
      const site = await startStandardSite();
      try {
        await use(site);
      } finally {
        await site.stop();
      }
    },
    { scope: "worker", timeout: 90_000 },
  ],
  emptySite: siteOfTheWorker(),
  demoSite: siteOfTheWorker({ seedDemo: true }, 180_000),
  // biome-ignore lint/correctness/noEmptyPattern: Playwright needs the destructuring
  launchSite: async ({}, use) => {
    const started: RunningSite[] = [];
    await use(async (options) => {
      const site = await startSite(options);
      started.push(site);
      return site;
    });
    await Promise.all(started.map((site) => site.stop()));
  },
});

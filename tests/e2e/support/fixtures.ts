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
 * - `workerShelf` (worker scope): what a spec keeps for all its tests in a worker (its own site, a mail receiver, an
 *   OpenID provider), opened by the first test that asks for it (`perWorker`, `perWorkerSite`). These are the only
 *   worker fixtures: Playwright gives a test file with a worker fixture of its own workers of its own (a new process,
 *   browser and standard sites each time the next file needs the other kind: 27 workers in a 2-worker run, about a
 *   sixth of the browser pass's CPU), while files that share the fixtures share the workers.
 *
 * Where the helpers live, one concern per module: pages.ts (a browser page), admin-session.ts (the admin and
 * signing in), news-api.ts (the JSON API), media-files.ts (files to upload), standard-site.ts (the standard data
 * set), smtp.ts (mail), oidc.ts (Google sign-in), faults.ts (failures); and, shared with the benchmarks, in
 * tests/factories: site.ts (starting servers), site-data.ts (a running site's data behind the server's back),
 * site-database.ts (SQLite or PostgreSQL), varnish.ts (a Varnish in front).
 */
import { test as base } from "@playwright/test";
import { type RunningSite, type SiteOptions, startSite } from "#tests/factories/site.ts";
import { type StandardSite, startStandardSite } from "./standard-site.ts";

export { expect } from "@playwright/test";
export { t } from "#app/i18n/newsroom.ts";
export * from "./admin-session.ts";
export * from "./media-files.ts";
export * from "./news-api.ts";
export * from "./pages.ts";
export * from "#tests/factories/site-data.ts";
export { siteQuery, TEST_DATABASE } from "#tests/factories/site-database.ts";
export * from "./standard-site.ts";

// -------------------------------------------------------------------------------------- fixtures

/** Resources kept for the worker's whole life, by key: see `perWorker`. */
export interface WorkerShelf {
  /**
   * The resource under `key`, opened by `open` the first time it is asked for in this worker. `open` hands each
   * thing it starts to `onClose` (its stop function) as soon as it is started: they are closed in reverse order when
   * the worker ends, also when a later step of `open` failed.
   */
  get<T>(key: string, open: (onClose: (close: () => Promise<unknown>) => void) => Promise<T>): Promise<T>;
}

interface WorkerFixtures {
  workerShelf: WorkerShelf;
  standardSite: StandardSite;
  emptySite: RunningSite;
  /** The quick-start demo content (SEED_DEMO=1), seeded by the server at its first start. */
  demoSite: RunningSite;
}

interface TestFixtures {
  /** Starts a site for this test only; stopped automatically when the test ends. */
  launchSite: (options?: SiteOptions) => Promise<RunningSite>;
}

/** A site of the worker's own (started once per worker, stopped when the worker ends): the standard sites below. */
function siteOfTheWorker(
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

/**
 * A test fixture that hands every test of this worker the same resource (opened once, by the first test that asks;
 * closed when the worker ends): a spec's own site, without a worker fixture of its own (see `workerShelf`).
 * `timeout` bounds the opening, apart from the test's own time.
 */
export function perWorker<T>(
  key: string,
  open: (onClose: (close: () => Promise<unknown>) => void) => Promise<T>,
  timeout = 60_000,
): [(args: { workerShelf: WorkerShelf }, use: (value: T) => Promise<void>) => Promise<void>, { timeout: number }] {
  return [async ({ workerShelf }, use) => use(await workerShelf.get(key, open)), { timeout }];
}

/** `perWorker` for one site started with `options`. */
export function perWorkerSite(key: string, options: SiteOptions = {}, timeout = 60_000) {
  return perWorker(
    key,
    async (onClose) => {
      const site = await startSite(options);
      onClose(() => site.stop());
      return site;
    },
    timeout,
  );
}

/**
 * One of the things that a worker's resource holds for one test each (e.g. stories made before its site started, so
 * that tests sharing the site never touch each other's data): the next one not taken yet of the resource under `key`
 * (opened by the first test that asks, as `workerShelf.get` does). Once they are all taken (a worker running the
 * file more than once: --repeat-each, retries), a new resource is opened for the next ones.
 */
export async function takeOne<R extends { untaken: unknown[] }>(
  workerShelf: WorkerShelf,
  key: string,
  open: (onClose: (close: () => Promise<unknown>) => void) => Promise<R>,
): Promise<{ resource: R; taken: R["untaken"][number] }> {
  for (let n = 0; ; n++) {
    const resource = await workerShelf.get(`${key}#${n}`, open);
    const taken = resource.untaken.shift();
    if (taken !== undefined) return { resource, taken };
  }
}

/** The options of a site whose every test signs in: the per-address sign-in limit is kept out of the way. */
export const NEWSROOM_SITE: SiteOptions = { env: { LOGIN_RATE_LIMIT: "1000" } };

export const test = base.extend<TestFixtures, WorkerFixtures>({
  workerShelf: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright needs the destructuring
    async ({}, use) => {
      const opened = new Map<string, Promise<unknown>>();
      const closers: Array<() => Promise<unknown>> = [];
      try {
        await use({
          get<T>(key: string, open: (onClose: (close: () => Promise<unknown>) => void) => Promise<T>): Promise<T> {
            let value = opened.get(key);
            if (!value) {
              value = open((close) => closers.push(close));
              // A failed opening is tried again by the next test (what it did start is closed at the worker's end).
              value.catch(() => opened.delete(key));
              opened.set(key, value);
            }
            return value as Promise<T>;
          },
        });
      } finally {
        for (const close of closers.reverse()) await close().catch(() => undefined);
      }
    },
    { scope: "worker", timeout: 180_000 },
  ],
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

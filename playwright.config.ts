import { defineConfig, devices } from "@playwright/test";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * The browser pass on PostgreSQL (TEST_DATABASE=postgres) runs the specs whose outcome depends on the database engine
 * in a way only running servers show:
 * - change events between processes (PostgreSQL's LISTEN/NOTIFY instead of SQLite's data_version poll) reaching open
 *   pages, the page cache's takedowns, two workers, two instances;
 * - faults: a kill in the middle of a save, a full disk, the database restarted, another program writing to it;
 * - two browsers on one story: version conflicts, merge and autosave through the real server's transactions.
 * Every other spec exercises what the browser draws and does, and the HTTP layer in front of the data, through the
 * same queries and the same events, which the integration tests (tests/integration) run on both engines — the live
 * coverage's, publishing's and the scheduler's SQL and events (a second instance hearing them through NOTIFY), search
 * (FTS5 or tsvector), keyset paging over equal dates, accent- and case-insensitive terms, the most-read ranking: those
 * specs run once, on SQLite. (Until 2026-11-29 live-coverage, news-publishing, cdn-varnish, page-cache, most-read,
 * news-list-paging, search and taxonomy ran here too: 279 of the pass's 520 test-seconds, repeating what the
 * integration tests check on PostgreSQL.) The screenshots' baselines are the demo content as SQLite ranks it.
 */
const DEPENDS_ON_THE_DATABASE = [
  // Change events between processes and what hangs on them.
  "live-updates",
  "multi-instance",
  "other-writers",
  "page-cache-takedown",
  "workers",
  // Faults.
  "crash-consistency",
  "crash-recovery",
  "disk-full",
  "postgres-restart",
  // Concurrent editors.
  "autosave",
  "merge",
  // Typo tolerance: pg_trgm's similarity here, FTS5's trigram tokenizer there (what the page then shows).
  "search-forgives",
].map((name) => `**/${name}.spec.ts`);

/**
 * Two builds of Debian's Chromium. Specs that measure what a reader's browser draws — the screenshots' pixels, the
 * fonts' metrics — run in the full browser (`chromium`, the one readers install). Every other spec drives pages
 * (forms, events, navigation, HTTP) the same way in both, and runs in `chromium-headless-shell` (the same engine without
 * the browser's shell, what Playwright itself runs headless; it cannot show notifications, so the alerts' spec runs in the
 * full browser too): measured on the 2-core machine, 53 tests took 70 s and
 * 49 s of CPU in the full browser, 44 s and 32 s in the shell; the whole SQLite pass 8.3 → 5.9 min.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_SHELL_PATH = process.env.CHROMIUM_SHELL_PATH ?? "/usr/bin/chromium-headless-shell";
const DRAWN_AS_READERS_SEE = [
  "**/screenshots.spec.ts",
  "**/front-end-weight.spec.ts",
  // Notifications: the shell has none (it refuses every permission to show one), the browser does.
  "**/push-alerts.spec.ts",
];

const specs = process.env.TEST_DATABASE === "postgres" ? DEPENDS_ON_THE_DATABASE : ["**/*.spec.ts"];

export default defineConfig({
  testDir: "tests/e2e",
  projects: [
    {
      name: "chromium",
      testMatch: specs.filter((pattern) => !DRAWN_AS_READERS_SEE.includes(pattern)),
      testIgnore: DRAWN_AS_READERS_SEE,
      use: { launchOptions: { executablePath: CHROMIUM_SHELL_PATH, args: CHROMIUM_ARGS } },
    },
    {
      name: "chromium-full",
      testMatch: DRAWN_AS_READERS_SEE.filter(() => specs.includes("**/*.spec.ts")),
      use: { launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } },
    },
  ],
  // A test.only left in a spec would silently skip the rest of the suite.
  forbidOnly: Boolean(process.env.CI),
  outputDir: "test-results/artifacts",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: {
    // How long an expectation waits for the page to get there (it returns as soon as it does): on a loaded 2-core
    // machine a sign-in (scrypt) or a save's reload has taken more than 7 s, and a wait that ends early is a flake,
    // not a finding.
    timeout: 15_000,
    // tests/e2e/screenshots.spec.ts: up to 0.1 % of the pixels may differ (anti-aliasing; two runs here draw the very
    // same pixels): a moved block, a changed color, spacing or font goes well beyond that.
    toHaveScreenshot: { maxDiffPixelRatio: 0.001 },
  },
  // Committed baselines of tests/e2e/screenshots.spec.ts, in one folder, without a platform suffix: they are drawn by
  // Debian's Chromium, the browser of CI (how to update them: see the top of that spec).
  snapshotPathTemplate: "{testDir}/screenshots/{arg}{ext}",
  reporter: [["list"], ["html", { open: "never", outputFolder: "test-results/report" }]],
  use: {
    ...devices["Desktop Chrome"],
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
    // A trace records every action's snapshots, then throws them away when the test passes: ~20 % of the suite's
    // time on the 2-core machine (three specs: 104-107 s with traces, 83-85 s without). Kept on a developer's machine,
    // where a failure's trace is opened (npx playwright show-trace); off in CI, whose runner keeps only the log.
    trace: process.env.CI ? "off" : "retain-on-failure",
    // The readers' service worker is off in the browser tests (a fresh context per test would install it, and
    // download the reader shell it precaches, ~550 times a run); tests/e2e/offline.spec.ts turns it on for its own.
    serviceWorkers: "block",
    screenshot: "only-on-failure",
  },
});

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
 * in a way only the running server shows:
 * - change events across processes and instances (SQLite's data_version poll, PostgreSQL's LISTEN/NOTIFY) and what
 *   hangs on them: the page cache, open pages, the CDN purge, the scheduler, two workers, two instances;
 * - faults: a kill in the middle of a save, a full disk, the database restarted;
 * - two browsers on one story: version conflicts, merge and autosave through the real server's transactions;
 * - what readers see of the engine's own SQL: search (FTS5 or tsvector), keyset paging over equal dates,
 *   accent- and case-insensitive terms, the most-read ranking.
 * Every other spec exercises what the browser draws and does, and the HTTP layer in front of the data, through the
 * same queries, which the integration tests (tests/integration) run on both engines: those run once, on SQLite. The
 * screenshots' baselines are the demo content as SQLite ranks it ("Leia também" orders equal matches by each engine's
 * own relevance score).
 */
const DEPENDS_ON_THE_DATABASE = [
  // Change events and what hangs on them.
  "cdn-varnish",
  "live-coverage",
  "live-updates",
  "multi-instance",
  "news-publishing",
  "other-writers",
  "page-cache",
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
  // The engine's SQL as readers see it.
  "most-read",
  "news-list-paging",
  "search",
  "taxonomy",
].map((name) => `**/${name}.spec.ts`);

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: process.env.TEST_DATABASE === "postgres" ? DEPENDS_ON_THE_DATABASE : "**/*.spec.ts",
  // A test.only left in a spec would silently skip the rest of the suite.
  forbidOnly: Boolean(process.env.CI),
  outputDir: "test-results/artifacts",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: {
    timeout: 7_000,
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
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: CHROMIUM_ARGS,
    },
  },
});

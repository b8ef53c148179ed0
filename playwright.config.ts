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
 * Specs about what the browser draws, weighs and announces — the pixels (screenshots), the JavaScript's weight, axe's
 * accessibility checks, the layout's boxes, the lead image's box, the consent banner and its network requests — and
 * about the HTTP layer in front of the data — security headers and CSP, hashed assets, request-body limits (slow and
 * oversized bodies are cut before anything is read or written), event-stream connection limits — run on SQLite only:
 * none of them reads or writes data differently by database, and the screenshots' baselines are the demo content as
 * SQLite ranks it ("Leia também" orders equal matches by each engine's own relevance score). Everything that reads or
 * writes data runs on both.
 */
const SAME_ON_EVERY_DATABASE = [
  "screenshots",
  "front-end-weight",
  "a11y",
  "layout",
  "lead-image",
  "consent",
  "security-headers",
  "assets",
  "body-limits",
  "event-stream-limits",
].map((name) => `**/${name}.spec.ts`);

export default defineConfig({
  testDir: "tests/e2e",
  testIgnore: process.env.TEST_DATABASE === "postgres" ? SAME_ON_EVERY_DATABASE : [],
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

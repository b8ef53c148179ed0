import { defineConfig } from "vitest/config";

/**
 * Two kinds of tests:
 * - unit tests (tests/unit, tests/components, app/**\/*.test.ts): pure functions, no database, server, browser or
 *   network;
 * - integration tests (tests/integration): real services on a real database, SQLite or PostgreSQL.
 *
 * They run as Vitest projects, chosen by TEST_DATABASE:
 * - unset or `sqlite`: `unit` and `sqlite` (the integration tests on SQLite files);
 * - `postgres`: `postgres` only (unit tests do not depend on the database);
 * - `both` (scripts/test.ts, when PostgreSQL answers): all three in one run, whose files share one pool of workers.
 * Each integration project sets TEST_DATABASE for its own files (tests/factories/services.ts reads it).
 */
const unitTests = ["tests/unit/**/*.test.ts", "tests/components/**/*.test.tsx", "app/**/*.test.ts"];
const integrationTests = ["tests/integration/**/*.test.ts"];

/**
 * Integration tests whose outcome does not depend on the database engine: they run once, in the SQLite project. What
 * they write to the database goes through queries other files run on both engines (media records, a story's save).
 */
const ENGINE_INDEPENDENT = [
  // The backup is SQLite's own (an online copy of the file); it runs on SQLite files whatever TEST_DATABASE says.
  "backup",
  // The media stores' contract (local, S3 on s3rver, Drive on its contract server) and ffmpeg's posters.
  "store-contract",
  "drive-store",
  "video-poster",
  // HTTP servers on loopback with no database behind them: the slow-body watch, the load shedder, Redis's limits.
  "slow-body",
  "load-shedding",
  "redis-rate-limiter",
].map((name) => `tests/integration/${name}.test.ts`);

const wanted = process.env.TEST_DATABASE ?? "sqlite";
const projects = [
  { name: "unit", include: unitTests, exclude: [], runs: wanted !== "postgres" },
  { name: "sqlite", include: integrationTests, exclude: [], runs: wanted !== "postgres" },
  { name: "postgres", include: integrationTests, exclude: ENGINE_INDEPENDENT, runs: wanted === "postgres" || wanted === "both" },
].filter((project) => project.runs);

export default defineConfig({
  test: {
    environment: "node",
    setupFiles: ["tests/setup/fail-on-console-error.ts"],
    testTimeout: 30_000,
    // A test.only left in a file would silently skip the rest of it: refused in CI, the rule of playwright.config.ts's
    // forbidOnly. (Vitest's default says the same, through std-env's guess of CI; written out so both runners read one rule.)
    allowOnly: !process.env.CI,
    // Each file has its own data directory and database, so files never share state. Measured on the 2-core machine
    // (2026-11-28, 155 files): both projects in one run took 6 min 25 s with 4 workers and 6 min 48 s with 3 — the
    // files are CPU-bound more than they wait (the two passes apart took 1 min 24 s + 2 min 00 s when the suite was
    // smaller; not measured again at today's size).
    maxWorkers: wanted === "both" ? 4 : wanted === "postgres" ? 3 : 2,
    // A worker runs its files one after another in one module graph instead of importing the app again for each file
    // (a project's files never share a worker with another project's: the SQLite and PostgreSQL passes stay apart).
    // Files share no state through modules: each makes its own data directory, database and services, and restores
    // what it changes (timers, environment variables). Measured on the 2-core machine (2026-11-29, both projects,
    // 171 files): 4 min 24 s isolated, 3 min 22 s without; 6 workers instead of 4 changed nothing (4 min 17 s: the CPU
    // is busy 99 % of the run either way, PostgreSQL included).
    isolate: false,
    projects: projects.map(({ name, include, exclude }) => ({
      extends: true,
      test: {
        name,
        include,
        exclude,
        env: name === "unit" ? {} : { TEST_DATABASE: name },
      },
    })),
  },
});

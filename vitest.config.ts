import { defineConfig } from "vitest/config";

/**
 * Two kinds of tests:
 * - unit tests (tests/unit, app/**\/*.test.ts): pure functions, no database, server, browser or network;
 * - integration tests (tests/integration): real services on a real database, SQLite by default or PostgreSQL with
 *   TEST_DATABASE=postgres (scripts/test.ts runs both passes).
 * Unit tests do not depend on the database, so the PostgreSQL pass leaves them out.
 */
const unitTests = ["tests/unit/**/*.test.ts", "tests/components/**/*.test.tsx", "app/**/*.test.ts"];
const integrationTests = ["tests/integration/**/*.test.ts"];

export default defineConfig({
  test: {
    include: process.env.TEST_DATABASE === "postgres" ? integrationTests : [...unitTests, ...integrationTests],
    environment: "node",
    setupFiles: ["tests/setup/fail-on-console-error.ts"],
    testTimeout: 30_000,
    // Vitest's default is one worker per core but one (1 on the 2-core CI machine: every file in turn). The files
    // mostly wait on disks, PostgreSQL and child processes: measured on that machine, 2 workers take the SQLite pass
    // from 168 s to 87 s, 3 take the PostgreSQL pass from 256 s to 127 s. Each file has its own data directory and
    // database, so files never share state.
    maxWorkers: process.env.TEST_DATABASE === "postgres" ? 3 : 2,
  },
});

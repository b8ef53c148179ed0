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
  },
});

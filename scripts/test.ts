/**
 * `npm test`: the whole suite.
 *  0. a fresh production build (the integration tests that start the real server use it, as the browser tests do);
 *  1. unit tests and integration tests (Vitest), the integration tests on SQLite files and, in the same run, on
 *     PostgreSQL (each test file creates and drops its own database) when the server at TEST_POSTGRES_URL (default
 *     postgres://postgres@127.0.0.1:5432/postgres) answers — required in CI (vitest.config.ts: TEST_DATABASE=both;
 *     the unit tests touch no database and run once);
 *  2. the browser tests (Playwright driving Debian's Chromium on the real server), on
 *     SQLite;
 *  3. the browser tests whose outcome depends on the database engine again on PostgreSQL (playwright.config.ts lists
 *     them: a database per site; this pass also runs tests/e2e/multi-instance.spec.ts: two instances on one
 *     PostgreSQL, one S3 store and Redis), under the same condition as 1.
 * Prints how long each pass took.
 */
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const postgresUrl = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * Node's compile cache for every process of the run (server.js turns it on for the servers; this reaches the rest):
 * the Vitest workers, a fresh process per test file, and the commands the tests spawn (`scripts/*.ts`, each about
 * 2 CPU-s to load the app, a third of it compiling and stripping types). The folder is the one server.js uses.
 */
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), "node-compile-cache");

const timings: Array<[string, number]> = [];

function run(command: string, args: string[], env: Record<string, string> = {}) {
  const label = `${Object.entries(env)
    .map(([key, value]) => `${key}=${value} `)
    .join("")}${command} ${args.join(" ")}`;
  console.log(`\n▶ ${label}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  timings.push([label, Date.now() - started]);
  if (result.status !== 0) {
    console.error(`\n✖ ${label} falhou (código ${result.status ?? result.signal}).`);
    printTimings();
    process.exit(result.status ?? 1);
  }
}

function printTimings() {
  const format = (ms: number) => `${Math.floor(ms / 60_000)}min ${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")}s`;
  console.log("\nTempos:");
  for (const [label, ms] of timings) console.log(`  ${format(ms).padStart(10)}  ${label}`);
  console.log(`  ${format(timings.reduce((sum, [, ms]) => sum + ms, 0)).padStart(10)}  total`);
}

const postgres = await postgresAvailable();
if (!postgres && process.env.CI) {
  console.error(`✖ PostgreSQL não respondeu em ${postgresUrl}: no CI os testes de integração e do navegador rodam também nele.`);
  process.exit(1);
}

// The build comes first: integration tests that start the real server (commands-exit) would otherwise each build it
// themselves, two at a time into the same folder when both databases run together.
run("node", ["scripts/ensure-chromium.ts"]);
run("react-router", ["build"]);
if (postgres) {
  run("vitest", ["run"], { TEST_DATABASE: "both" });
} else {
  run("vitest", ["run"]);
  console.warn(`⚠ PostgreSQL não respondeu em ${postgresUrl}: a rodada de integração em PostgreSQL foi pulada (defina TEST_POSTGRES_URL).`);
}
run("playwright", ["test"]);
if (postgres) {
  run("playwright", ["test", "--output", "test-results/artifacts-postgres"], { TEST_DATABASE: "postgres" });
} else {
  console.warn(`⚠ PostgreSQL não respondeu em ${postgresUrl}: a rodada do navegador em PostgreSQL (e o teste de várias instâncias) foi pulada.`);
}
printTimings();
console.log("\n✔ Todos os testes passaram.");

/**
 * `npm test`: the whole suite.
 *  1. integration tests (Vitest) on SQLite files;
 *  2. the same integration tests on PostgreSQL (each test file creates and drops its own database), when the
 *     server at TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres) answers — required in CI;
 *  3. a fresh production build and the browser tests (Playwright driving Debian's Chromium on the real server).
 */
import { spawnSync } from "node:child_process";
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

function run(command: string, args: string[], env: Record<string, string> = {}) {
  const label = `${Object.entries(env).map(([key, value]) => `${key}=${value} `).join("")}${command} ${args.join(" ")}`;
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`\n✖ ${label} falhou (código ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

run("vitest", ["run"]);
if (await postgresAvailable()) {
  run("vitest", ["run"], { TEST_DATABASE: "postgres" });
} else if (process.env.CI) {
  console.error(`✖ PostgreSQL não respondeu em ${postgresUrl}: no CI os testes de integração rodam também nele.`);
  process.exit(1);
} else {
  console.warn(`⚠ PostgreSQL não respondeu em ${postgresUrl}: a rodada de integração em PostgreSQL foi pulada (defina TEST_POSTGRES_URL).`);
}
run("node", ["scripts/ensure-chromium.ts"]);
run("react-router", ["build"]);
run("playwright", ["test"]);
console.log("\n✔ Todos os testes passaram.");

/**
 * A change made by another process reaches a running server's page cache and open pages without a restart: here
 * `npm run seed:news` run beside the server. On SQLite the server sees the other connection's commits (PRAGMA
 * data_version, once a second) and resyncs; on PostgreSQL the command publishes through LISTEN/NOTIFY.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, markPage, expectNoReload, openPage, t, test } from "./support/fixtures.ts";
import { siteQuery } from "#tests/factories/site-database.ts";

const run = promisify(execFile);

test("notícias gravadas por outro processo (npm run seed:news) aparecem na home em cache e na página aberta, sem reiniciar", async ({
  launchSite,
  page,
  request,
}) => {
  // The command is a whole second process (it loads the app and checks the schema): seconds on a busy machine.
  test.slow();
  const site = await launchSite({ env: { PAGE_CACHE: "1" } });
  const stream = page.waitForResponse((response) => new URL(response.url()).pathname === "/events");
  await openPage(page, site, "/");
  expect((await stream).status()).toBe(200);
  await markPage(page);
  // The home is in the page cache, rendered before the news exist.
  await request.get(`${site.url}/`);
  expect((await request.get(`${site.url}/`)).headers()["x-page-cache"]).toBe("hit");

  await run(process.execPath, [path.resolve("scripts/seed-news.ts"), "--count", "2", "--images", "0"], {
    env: {
      ...process.env,
      DATA_DIR: site.dataDir,
      ...(site.databaseUrl ? { DATABASE_URL: site.databaseUrl } : {}),
      SEED_DEMO: "0",
      NODE_ENV: "production",
    },
    timeout: 60_000,
  });
  const done = Date.now();
  const [newest] = await siteQuery<{ id: string; title: string }>(site, "SELECT id, title FROM news ORDER BY published_at DESC LIMIT 1");
  const { id, title } = newest!;

  // The open page reloads its data by itself (no full reload)…
  const recent = page.getByRole("region", { name: t.home.recentTitle });
  await expect(recent.getByTestId("news-card").filter({ hasText: title }).first()).toBeVisible({ timeout: 3_000 });
  test.info().annotations.push({ type: "página aberta atualizada", description: `${Date.now() - done} ms após o fim do comando` });
  await expectNoReload(page);
  // …and the home, asked afresh, is no longer the cached copy from before.
  await expect.poll(async () => (await request.get(`${site.url}/`)).text(), { timeout: 3_000 }).toContain(`data-news-id="${id}"`);
});

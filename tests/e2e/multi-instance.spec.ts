/**
 * Many instances, one site: two production servers (different ports and data directories) on ONE PostgreSQL
 * database, ONE S3 store (s3rver), ONE Redis and the same AUTH_SECRET, as behind a load balancer.
 *
 * - a session made on A works on B;
 * - a reader page open on B follows, live, a news item (with an image) created through A; the image is served by B
 *   from S3 (B's disk has no media);
 * - a sponsor added through B appears live in the footer of a page open on A;
 * - the sign-in rate limit is shared (Redis): 2 failures on A use up the per-minute share of LOGIN_RATE_LIMIT=3, the 3rd on B is
 *   refused with the message;
 * - SIGTERM while an upload is in flight: the upload still completes (201) and the process exits 0 within seconds;
 * - /readyz: 200 on both; 503 naming the database when PostgreSQL becomes unreachable (through a proxy the test
 *   cuts), and 200 again when it comes back;
 * - an instance whose database link is cut for ~5 s while another publishes a story: once the link is back, its
 *   home shows the story and its open page reloads its data (the event bus listens again and delivers resync).
 * The sweeper's "one instance at a time" is covered by tests/integration/event-bus.test.ts.
 *
 * PostgreSQL only: it runs in the PostgreSQL browser pass (TEST_DATABASE=postgres; `npm test` runs it when
 * PostgreSQL answers, always in CI) and is skipped in the SQLite pass.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { createAdmin, type TestAccount, uniqueEmail } from "#tests/factories/auth.ts";
import { makeTestImage } from "#tests/factories/news.ts";
import { createTestServices, makeDataDir } from "#tests/factories/services.ts";
import { startTcpProxy } from "#tests/factories/tcp-proxy.ts";
import { startS3Server, type TestS3Server } from "#tests/storage/s3-server.ts";
import {
  expect,
  expectNoReload,
  expectStatus,
  makeNoisyJpeg,
  markPage,
  perWorker,
  SESSION_COOKIE,
  submitLogin,
  t,
  test as base,
  waitForHydration,
} from "./support/fixtures.ts";
import { createSiteDatabase, type PostgresDatabase, POSTGRES_ADMIN_URL, siteQuery, TEST_DATABASE } from "#tests/factories/site-database.ts";
import { freePort, type ServerProcess, spawnServer } from "#tests/factories/site.ts";

const REDIS_URL = process.env.REDIS_TEST_URL ?? "redis://127.0.0.1:6379";
const BUCKET = "eef-multi";
const RATE_LIMIT = 3;

interface Instance extends ServerProcess {
  name: string;
  dataDir: string;
  /** Stops the server (SIGTERM unless told) and removes its data directory. */
  stop(signal?: NodeJS.Signals): ReturnType<ServerProcess["stop"]>;
}

interface Cluster {
  a: Instance;
  b: Instance;
  admin: TestAccount;
  database: PostgresDatabase;
  s3: TestS3Server;
  /** Starts one more instance of the same site (same database, store, Redis and secret), with extra variables. */
  startInstance(name: string, env?: Record<string, string>): Promise<Instance>;
}

/** A random client address, sent as X-Forwarded-For (the app trusts its loopback proxy), so that sign-ins made by
 *  this file never share the per-IP counter with each other or with earlier runs (the counts live in Redis). */
const randomIp = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`;

const test = base.extend<{ reader: BrowserContext; cluster: Cluster }>({
  cluster: perWorker(
    "multi-instance",
    async (onClose): Promise<Cluster> => {
      const database = await createSiteDatabase();
      onClose(() => database.drop());
      const s3 = await startS3Server([BUCKET]);
      onClose(() => s3.stop());
      const secret = randomBytes(32).toString("base64url");
      const shared: Record<string, string> = {
        // The tests play the load balancer on this machine: it says which address each visitor comes from.
        TRUST_PROXY: "loopback",
        DATABASE_URL: database.url,
        AUTH_SECRET: secret,
        REDIS_URL,
        LOGIN_RATE_LIMIT: String(RATE_LIMIT),
        LOGIN_RATE_WINDOW_SECONDS: "120",
        ...s3.env(BUCKET),
      };
      const started: Instance[] = [];
      onClose(() => Promise.all(started.map((instance) => instance.stop())));
      const startInstance = async (name: string, env: Record<string, string> = {}): Promise<Instance> => {
        const port = await freePort();
        const dataDir = makeDataDir(`eef-multi-${name}-`);
        let server: ServerProcess;
        try {
          // The page cache on, as in production: invalidated on every instance by the shared event bus.
          server = await spawnServer({ port, env: { DATA_DIR: dataDir, SITE_URL: `http://127.0.0.1:${port}`, PAGE_CACHE: "1", ...shared, ...env } });
        } catch (error) {
          fs.rmSync(dataDir, { recursive: true, force: true });
          throw error;
        }
        const instance: Instance = {
          ...server,
          name,
          dataDir,
          async stop(signal) {
            const result = await server.stop(signal);
            fs.rmSync(dataDir, { recursive: true, force: true });
            return result;
          },
        };
        started.push(instance);
        return instance;
      };
      // Schema and the admin account first (as a deploy's migration step would), on a data directory of its own.
      const setupDir = makeDataDir("eef-multi-setup-");
      const services = await createTestServices(setupDir, shared);
      let admin: TestAccount;
      try {
        admin = await createAdmin(services, { password: "Senha-admin-1" });
      } finally {
        await services.close();
        fs.rmSync(setupDir, { recursive: true, force: true });
      }
      const [a, b] = await Promise.all([startInstance("a"), startInstance("b")]);
      // Each instance LISTENs once its first page subscribes; make both listen now and wait until PostgreSQL
      // shows both listening connections, so no event of a test can go out before an instance hears it.
      for (const instance of [a, b]) {
        const controller = new AbortController();
        const response = await fetch(`${instance.url}/events`, { signal: controller.signal });
        await response.body!.getReader().read();
        controller.abort();
      }
      await expect
        .poll(async () => {
          const rows = await siteQuery<{ n: string | number }>(
            { dbFile: "", databaseUrl: POSTGRES_ADMIN_URL },
            "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = ? AND query ILIKE 'listen %'",
            new URL(database.url).pathname.slice(1),
          );
          return Number(rows[0]!.n);
        })
        .toBe(2);
      return { a, b, admin, database, s3, startInstance };
    },
    120_000,
  ),
  reader: async ({ browser }, use) => {
    const context = await browser.newContext();
    await use(context);
    // Leave every page (closing its live-updates stream) before the servers stop.
    for (const page of context.pages()) await page.goto("about:blank").catch(() => undefined);
    await context.close();
  },
});

test.describe("várias instâncias, um só site (PostgreSQL + S3 + Redis)", () => {
  // Runs in the PostgreSQL browser pass only: the instances need PostgreSQL (LISTEN/NOTIFY, shared sessions).
  test.skip(TEST_DATABASE !== "postgres", "só na rodada PostgreSQL do navegador (TEST_DATABASE=postgres)");
  // One cluster for the whole file, tests in order (they do not depend on each other's data).
  test.describe.configure({ mode: "default" });

  test.beforeAll(async () => {
    const redis = await answers(REDIS_URL);
    if (!redis && process.env.CI) throw new Error(`Redis não respondeu em ${REDIS_URL}: no CI este teste é obrigatório.`);
    test.skip(!redis, `Redis não respondeu em ${REDIS_URL} (defina REDIS_TEST_URL)`);
  });

  test("/readyz responde 200 nas duas instâncias", async ({ cluster, request }) => {
    for (const instance of [cluster.a, cluster.b]) {
      // Each check has an 800 ms deadline: on a busy machine a fresh instance's first probe (new connections) may
      // time out, as a load balancer's would; the next one answers.
      await expect
        .poll(
          async () => {
            const response = await request.get(`${instance.url}/readyz`);
            return { status: response.status(), body: await response.json() };
          },
          { timeout: 10_000 },
        )
        .toEqual({ status: 200, body: { status: "ok", checks: { database: "ok", events: "ok", media: "ok", redis: "ok" } } });
    }
  });

  test("a sessão aberta na instância A vale na instância B", async ({ cluster, playwright, browser }) => {
    const { a, b } = cluster;
    const cookie = await signInCookie(playwright.request, a.url, cluster.admin);

    // Over HTTP: B serves an admin-only page to A's cookie, and sends a visitor without it to the login page.
    const api = await playwright.request.newContext();
    try {
      const signedIn = await api.get(`${b.url}/add-news`, { headers: { cookie: `${SESSION_COOKIE}=${cookie}` }, maxRedirects: 0 });
      expect(signedIn.status()).toBe(200);
      expect(await signedIn.text()).toContain(t.newsForm.createTitle);
      const anonymous = await api.get(`${b.url}/add-news`, { maxRedirects: 0 });
      expect(anonymous.status()).toBe(302);
    } finally {
      await api.dispose();
    }

    // In a browser that never talked to A: the cookie made by A, handed to B, opens the admin page.
    const context = await browser.newContext();
    try {
      await context.addCookies([{ name: SESSION_COOKIE, value: cookie, url: b.url, httpOnly: true, sameSite: "Lax" }]);
      const page = await context.newPage();
      const response = await page.goto(`${b.url}/add-news`);
      expect(response?.status()).toBe(200);
      await waitForHydration(page);
      await expect(page).toHaveURL(`${b.url}/add-news`);
      await expect(page.getByLabel("Título", { exact: true })).toBeVisible();
      await page.goto("about:blank");
    } finally {
      await context.close();
    }
  });

  test("notícia retirada na instância A: a B para de servir a cópia guardada em menos de 1 s", async ({ cluster, playwright }) => {
    const { a, b } = cluster;
    const admin = await adminRequest(playwright.request, a.url, cluster.admin);
    const reader = await playwright.request.newContext();
    try {
      const created = await admin.post(`${a.url}/api/news`, {
        multipart: {
          title: `Retirada entre instâncias ${randomBytes(3).toString("hex")}`,
          subtitle: "Sub.",
          fullContent: "Texto.",
          category: "Futebol",
        },
        headers: { origin: a.url },
      });
      await expectStatus(created, 201, "POST /api/news na instância A");
      const { id } = (await created.json()) as { id: string };
      const article = `${b.url}/article/${id}`;
      await reader.get(article);
      const cached = await reader.get(article);
      expect(cached.status()).toBe(200);
      expect(cached.headers()["x-page-cache"]).toBe("hit");

      await expectStatus(await admin.delete(`${a.url}/api/news/${id}`, { headers: { origin: a.url } }), 204, "DELETE na instância A");
      const deleted = Date.now();
      let status = 200;
      while (status !== 404 && Date.now() - deleted < 1000) {
        status = (await reader.get(article, { headers: { "If-None-Match": cached.headers().etag! } })).status();
        if (status !== 404) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status, `B ainda respondia ${status} 1 s depois do DELETE na A`).toBe(404);
    } finally {
      await admin.dispose();
      await reader.dispose();
    }
  });

  test("notícia com imagem criada pela instância A aparece ao vivo numa página aberta na B; B serve a imagem do S3", async ({
    cluster,
    playwright,
    reader,
  }) => {
    const { a, b } = cluster;
    const home = await openLive(reader, b.url, "/");
    const title = `Notícia entre instâncias ${randomBytes(3).toString("hex")}`;
    await expect(home.getByText(title)).toHaveCount(0);

    const admin = await adminRequest(playwright.request, a.url, cluster.admin);
    let id: string;
    try {
      const created = await admin.post(`${a.url}/api/news`, {
        multipart: {
          title,
          subtitle: "Criada na instância A, lida na B.",
          fullContent: "Conteúdo.",
          category: "Futebol",
          mediaDescription: "Foto de teste.",
          media: { name: "foto.jpg", mimeType: "image/jpeg", buffer: await makeTestImage(800, 450) },
        },
        headers: { origin: a.url },
      });
      await expectStatus(created, 201, "POST /api/news na instância A");
      id = ((await created.json()) as { id: string }).id;
    } finally {
      await admin.dispose();
    }

    // The page on B shows it without reloading, image and all.
    const recent = home.getByRole("region", { name: t.home.recentTitle });
    const card = recent.getByTestId("news-card").filter({ hasText: title });
    await expect(card).toBeVisible();
    await expect(card).toHaveAttribute("data-news-id", id);
    const image = card.locator("img").first();
    await expect(image).toHaveAttribute("src", /^\/media\/.+/);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expectNoReload(home);

    // Both instances serve the same bytes for it; neither keeps media on its own disk (they come from S3).
    const src = (await image.getAttribute("src"))!;
    const fromB = await fetch(b.url + src);
    const fromA = await fetch(a.url + src);
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get("content-type")).toMatch(/^image\//);
    expect(Buffer.from(await fromB.arrayBuffer()).equals(Buffer.from(await fromA.arrayBuffer()))).toBe(true);
    expect(listFiles(path.join(b.dataDir, "media"))).toEqual([]);
    expect(listFiles(path.join(a.dataDir, "media"))).toEqual([]);
  });

  test("patrocinador adicionado pela instância B aparece ao vivo no rodapé de uma página aberta na A", async ({ cluster, playwright, reader }) => {
    const { a, b } = cluster;
    const page = await openLive(reader, a.url, "/news-list");
    const footer = page.getByRole("region", { name: t.footer.sponsorsTitle }).getByRole("listitem");
    const before = await footer.count();

    const admin = await adminRequest(playwright.request, b.url, cluster.admin);
    try {
      const added = await admin.post(`${b.url}/api/sponsors`, {
        multipart: {
          name: "Patrocinador da instância B",
          image: { name: "logo.png", mimeType: "image/png", buffer: await makeTestImage(300, 300, "png") },
        },
        headers: { origin: b.url },
      });
      await expectStatus(added, 201, "POST /api/sponsors na instância B");
    } finally {
      await admin.dispose();
    }

    await expect(footer).toHaveCount(before + 1);
    const logo = footer.last().getByRole("img", { name: "Patrocinador da instância B" });
    await expect(logo).toBeVisible();
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expectNoReload(page);
  });

  test("atualização ao vivo publicada na instância A chega à página aberta na B, sem recarregar, e ao cache da B", async ({
    cluster,
    playwright,
    reader,
  }) => {
    const { a, b } = cluster;
    const admin = await adminRequest(playwright.request, a.url, cluster.admin);
    try {
      const created = await admin.post(`${a.url}/api/news`, {
        multipart: {
          title: `Clássico entre instâncias ${randomBytes(3).toString("hex")}`,
          subtitle: "Sub.",
          fullContent: "Texto.",
          category: "Futebol",
        },
        headers: { origin: a.url },
      });
      await expectStatus(created, 201, "POST /api/news na instância A");
      const { id } = (await created.json()) as { id: string };
      await expectStatus(await admin.patch(`${a.url}/api/news/${id}`, { data: { coverage: "live" }, headers: { origin: a.url } }), 200, "cobertura");
      const page = await openLive(reader, b.url, `/article/${id}`);
      await expect(page.getByTestId("live-coverage")).toBeVisible();
      // B's page cache holds the updates' JSON before the update (a reader asked for it).
      await reader.request.get(`${b.url}/api/news/${id}/updates`);

      const posted = await admin.post(`${a.url}/api/news/${id}/updates`, {
        data: { text: "Gol postado na instância A" },
        headers: { origin: a.url },
      });
      await expectStatus(posted, 201, "POST /api/news/:id/updates na instância A");
      await expect(page.getByTestId("live-updates").getByTestId("live-update").first()).toContainText("Gol postado na instância A");
      await expectStatus(
        await admin.patch(`${a.url}/api/news/${id}`, {
          data: { scoreboard: { home: "Bahia", away: "Vitória", homeScore: 1, awayScore: 0, period: "1º tempo" } },
          headers: { origin: a.url },
        }),
        200,
        "placar",
      );
      await expect(page.getByTestId("score-home")).toHaveText("1");
      await expectNoReload(page);
      const fromB = (await (await reader.request.get(`${b.url}/api/news/${id}/updates`)).json()) as { updates: Array<{ text: string }> };
      expect(fromB.updates[0]?.text).toBe("Gol postado na instância A");
    } finally {
      await admin.dispose();
    }
  });

  test(`o limite de tentativas de login é compartilhado (Redis): 2 falhas na A, a 3ª tentativa (na B) é recusada`, async ({
    cluster,
    playwright,
    browser,
  }) => {
    const { a, b } = cluster;
    // An account of its own (its counter starts at zero), and an address of its own for the per-IP counter.
    const services = await createTestServices(makeDataDir("eef-multi-user-"), { DATABASE_URL: cluster.database.url });
    let account: TestAccount;
    try {
      account = await createAdmin(services, { email: uniqueEmail("limite"), password: "Senha-certa-1" });
    } finally {
      await services.close();
      fs.rmSync(services.dataDir, { recursive: true, force: true });
    }
    const ip = randomIp();
    const api = await playwright.request.newContext({ extraHTTPHeaders: { "x-forwarded-for": ip } });
    try {
      for (const [instance, attempt] of [
        [a, 1],
        [a, 2],
      ] as const) {
        const response = await api.post(`${instance.url}/admin/login`, {
          form: { intent: "login", email: account.email, password: "senha-errada" },
          headers: { origin: instance.url },
          maxRedirects: 0,
        });
        expect(response.status(), `tentativa ${attempt}, instância ${instance.name}`).toBe(401);
      }
    } finally {
      await api.dispose();
    }

    // The 3rd, in the browser on B, even with the right password: refused with the rate-limit message (from one
    // address, an account gets half of LOGIN_RATE_LIMIT=3 per minute, rounded up to 2; the count lives in Redis).
    const context = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": ip } });
    try {
      const page = await context.newPage();
      await page.goto(`${b.url}/admin/login`);
      await waitForHydration(page);
      await submitLogin(page, account.email, account.password);
      await expect(page.getByTestId("auth-error")).toHaveText(t.auth.rateLimited(1));
      expect((await context.cookies()).some((cookie) => cookie.name === SESSION_COOKIE)).toBe(false);
      await page.goto("about:blank");
    } finally {
      await context.close();
    }
  });

  test("SIGTERM com um upload em andamento: o upload termina (201) e o processo sai com 0 em poucos segundos", async ({ cluster, playwright }) => {
    test.slow();
    const instance = await cluster.startInstance("c");
    try {
      const cookie = await signInCookie(playwright.request, instance.url, cluster.admin);
      const image = await makeNoisyJpeg(1200, 900);
      const boundary = "----eefdesligamento";
      const head = Buffer.from(
        `${[
          ["title", "Enviada durante o desligamento"],
          ["subtitle", "O servidor recebeu SIGTERM no meio do envio."],
          ["fullContent", "Conteúdo."],
          ["category", "Futebol"],
          ["mediaDescription", "Foto de teste."],
        ]
          .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
          .join("")}--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="foto.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const request = http.request(`${instance.url}/api/news`, {
        method: "POST",
        headers: {
          Origin: instance.url,
          Cookie: `${SESSION_COOKIE}=${cookie}`,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Content-Length": String(head.length + image.length + tail.length),
        },
      });
      const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
        request.on("response", (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          res.on("error", reject);
        });
        request.on("error", reject);
      });

      // A third of the file goes up; the server is already writing it to disk.
      const third = Math.floor(image.length / 3);
      request.write(head);
      request.write(image.subarray(0, third));
      await expect.poll(() => listFiles(path.join(instance.dataDir, "tmp", "uploads")).length, { timeout: 10_000 }).toBeGreaterThan(0);

      const signalledAt = Date.now();
      process.kill(-instance.pid, "SIGTERM");
      // The server stops taking new connections at once (each probe on a new connection)…
      await expect.poll(() => newConnectionAnswers(`${instance.url}/healthz`), { timeout: 5_000 }).toBe("recusou");
      expect(instance.child.exitCode, "ainda terminando o upload").toBeNull();
      // …but the upload in progress goes on to the end.
      request.write(image.subarray(third));
      request.end(tail);
      const { status, body } = await response;
      expect(status, body.slice(0, 300)).toBe(201);
      const id = (JSON.parse(body) as { id: string }).id;

      const exit = await Promise.race([
        instance.exited,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("o processo não saiu em 5 s")), 5_000)),
      ]);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalledAt).toBeLessThan(8_000);

      // Saved for everyone: the other instances list it, with its image from S3.
      const item = await fetch(`${cluster.a.url}/api/news/${id}`);
      expect(item.status).toBe(200);
      const { news } = (await item.json()) as { news: { title: string; media: { src: string } | null } };
      expect(news.title).toBe("Enviada durante o desligamento");
      const media = await fetch(`${cluster.b.url}${news.media!.src}`);
      expect(media.status).toBe(200);
      expect(media.headers.get("content-type")).toBe("image/jpeg");
      expect((await media.arrayBuffer()).byteLength).toBeGreaterThan(0);
    } finally {
      await test.info().attach("instância c: log", { body: instance.logs(), contentType: "text/plain" });
      await instance.stop("SIGKILL");
    }
  });

  test("o link de B com o banco cai por ~5 s enquanto A publica: quando volta, a home de B mostra a notícia e a página aberta em B se atualiza", async ({
    cluster,
    playwright,
    reader,
  }) => {
    test.slow();
    // This instance (B') reaches PostgreSQL through a TCP proxy the test cuts; its pages and streams stay up.
    const proxy = await startTcpProxy(5432);
    const url = new URL(cluster.database.url);
    url.port = String(proxy.port);
    let instance: Instance | undefined;
    try {
      instance = await cluster.startInstance("link", { DATABASE_URL: url.href });
      const b = instance;
      const page = await openLive(reader, b.url, "/");
      // Its home is in its page cache (the page cache is on), rendered before the story exists.
      expect((await fetch(`${b.url}/`)).headers.get("x-page-cache")).toMatch(/hit|stale/);
      const title = `Notícia durante a queda ${randomBytes(3).toString("hex")}`;

      await proxy.cut();
      const cutAt = Date.now();
      const admin = await adminRequest(playwright.request, cluster.a.url, cluster.admin);
      try {
        const created = await admin.post(`${cluster.a.url}/api/news`, {
          multipart: { title, subtitle: "Criada na A enquanto a B estava sem banco.", fullContent: "Conteúdo.", category: "Futebol" },
          headers: { origin: cluster.a.url },
        });
        await expectStatus(created, 201, "POST /api/news na instância A");
      } finally {
        await admin.dispose();
      }
      // A has it at once; B heard nothing (its listening connection is down).
      await expect.poll(async () => (await fetch(`${cluster.a.url}/`)).text()).toContain(title);
      // The outage this test is about lasts ~5 s (its name says so): past the 3 s bound on B's event link and through
      // several of B's attempts to listen again. Its length is the scenario, not a wait for something to happen.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 5_000 - (Date.now() - cutAt))));
      await expect(page.getByText(title)).toHaveCount(0);
      await proxy.restore();
      const restoredAt = Date.now();

      // Back: B treats the gap as "anything may have changed". Its open page reloads its data and shows the story
      // (no full reload), and its home, asked afresh, has it — long before the page cache's TTL (300 s).
      const card = page.getByRole("region", { name: t.home.recentTitle }).getByTestId("news-card").filter({ hasText: title });
      await expect(card).toBeVisible({ timeout: 20_000 });
      await expectNoReload(page);
      await expect.poll(async () => (await fetch(`${b.url}/`)).text(), { timeout: 10_000 }).toContain(title);
      test
        .info()
        .annotations.push({ type: "tempo até a página de B mostrar a notícia", description: `${Date.now() - restoredAt} ms após o link voltar` });
    } finally {
      if (instance) await test.info().attach("instância link: log", { body: instance.logs(), contentType: "text/plain" });
      await instance?.stop();
      await proxy.close();
    }
  });

  test("/readyz responde 503 (banco de dados) quando o PostgreSQL fica inacessível, e 200 quando ele volta", async ({ cluster, request }) => {
    test.slow();
    // This instance reaches PostgreSQL through a TCP proxy the test can cut.
    const proxy = await startTcpProxy(5432);
    const url = new URL(cluster.database.url);
    url.port = String(proxy.port);
    let instance: Instance | undefined;
    try {
      instance = await cluster.startInstance("d", { DATABASE_URL: url.href });
      // A fresh instance's first probe may pass the 800 ms deadline on a busy machine: the next one answers.
      await expect.poll(async () => (await request.get(`${instance!.url}/readyz`)).status(), { timeout: 10_000 }).toBe(200);

      await proxy.cut();
      const down = await request.get(`${instance.url}/readyz`);
      expect(down.status()).toBe(503);
      expect(down.headers()["cache-control"]).toBe("no-store");
      // The event link's check turns "behind" 3 s after its last round trip (tested in tests/integration/event-link.test.ts).
      expect(await down.json()).toMatchObject({ status: "unavailable", checks: { database: "failed", media: "ok", redis: "ok" } });
      // Still alive (liveness is not readiness), and the other instances are unaffected.
      expect((await request.get(`${instance.url}/healthz`)).status()).toBe(200);
      expect((await request.get(`${cluster.a.url}/readyz`)).status()).toBe(200);

      await proxy.restore();
      await expect.poll(async () => (await request.get(`${instance!.url}/readyz`)).status(), { timeout: 15_000 }).toBe(200);
    } finally {
      if (instance) await test.info().attach("instância d: log", { body: instance.logs(), contentType: "text/plain" });
      await instance?.stop();
      await proxy.close();
    }
  });

  test("o link de B com o banco fica retido (pacotes parados): B sai do balanceador e para de servir a notícia retirada na A em ~3 s", async ({
    cluster,
    playwright,
  }) => {
    test.slow();
    // This instance reaches PostgreSQL (pool and event link) through a TCP proxy the test holds: nothing closes.
    const proxy = await startTcpProxy(5432);
    const url = new URL(cluster.database.url);
    url.port = String(proxy.port);
    let instance: Instance | undefined;
    const admin = await adminRequest(playwright.request, cluster.a.url, cluster.admin);
    try {
      instance = await cluster.startInstance("retido", { DATABASE_URL: url.href });
      const b = instance;
      const created = await admin.post(`${cluster.a.url}/api/news`, {
        multipart: { title: `Retirada com B retida ${randomBytes(3).toString("hex")}`, subtitle: "Sub.", fullContent: "Texto.", category: "Futebol" },
        headers: { origin: cluster.a.url },
      });
      await expectStatus(created, 201, "POST /api/news na instância A");
      const { id } = (await created.json()) as { id: string };
      const article = `${b.url}/article/${id}`;
      // B listens (its page cache subscribed at start); its copy of the story is stored.
      await expect.poll(async () => (await fetch(`${b.url}/readyz`)).status, { timeout: 10_000 }).toBe(200);
      await fetch(article);
      await expect.poll(async () => (await fetch(article)).headers.get("x-page-cache")).toBe("hit");

      proxy.hold();
      const heldAt = Date.now();
      await expectStatus(await admin.delete(`${cluster.a.url}/api/news/${id}`, { headers: { origin: cluster.a.url } }), 204, "DELETE na instância A");
      // B answers its stored copy for 3 s at most (from 1.5 s on, no-store), then never again while held.
      const answers: Array<{ at: number; status: number; cacheControl: string | null }> = [];
      let status = 200;
      while (status === 200 && Date.now() - heldAt < 10_000) {
        const asked = Date.now() - heldAt;
        const response = await fetch(article, { signal: AbortSignal.timeout(5_000) });
        status = response.status;
        answers.push({ at: asked, status, cacheControl: response.headers.get("cache-control") });
        await response.arrayBuffer();
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const lastServed = answers.filter((answer) => answer.status === 200).at(-1)!;
      expect(lastServed.at, "B serviu a notícia retirada depois do limite").toBeLessThan(3_300);
      expect(answers.filter((answer) => answer.status === 200 && answer.at > 1_700).every((answer) => answer.cacheControl === "no-store")).toBe(true);
      const refused = answers.at(-1)!;
      expect(refused.status).toBe(503);
      expect(refused.cacheControl).toBe("no-store");
      const ready = await fetch(`${b.url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { checks: Record<string, string> }).checks).toMatchObject({ database: "timed out", events: "behind" });
      const outAt = Date.now() - heldAt;

      proxy.release();
      const releasedAt = Date.now();
      await expect.poll(async () => (await fetch(`${b.url}/readyz`)).status, { timeout: 15_000 }).toBe(200);
      const backIn = Date.now() - releasedAt;
      expect((await fetch(article)).status).toBe(404);
      test.info().annotations.push({
        type: "link retido",
        description: `última cópia servida ${lastServed.at} ms após reter; /readyz 503 (events behind) confirmado em ${outAt} ms; 200 de novo ${backIn} ms após soltar`,
      });
    } finally {
      await admin.dispose();
      if (instance) await test.info().attach("instância retido: log", { body: instance.logs(), contentType: "text/plain" });
      await instance?.stop();
      await proxy.close();
    }
  });
});

// ------------------------------------------------------------------------------------------------ helpers

/** Whether something accepts TCP connections at this URL's host and port. */
function answers(address: string): Promise<boolean> {
  const { hostname, port } = new URL(address);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379), timeout: 2000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Whether a GET on a brand-new connection (no keep-alive reuse) gets an answer. */
function newConnectionAnswers(url: string): Promise<"aceitou" | "recusou"> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, timeout: 2_000 }, (response) => {
      response.resume();
      resolve("aceitou");
    });
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve("recusou"));
  });
}

/** Signs in through the login form over HTTP (from an address of its own); returns the session cookie's value. */
async function signInCookie(factory: { newContext: APIRequestContextFactory }, url: string, account: TestAccount): Promise<string> {
  const context = await factory.newContext({ extraHTTPHeaders: { "x-forwarded-for": randomIp() } });
  try {
    const response = await context.post(`${url}/admin/login`, {
      form: { intent: "login", email: account.email, password: account.password, redirectTo: "/news-list" },
      headers: { origin: url },
      maxRedirects: 0,
    });
    expect(response.status(), (await response.text()).slice(0, 300)).toBe(302);
    const cookie = (await context.storageState()).cookies.find((entry) => entry.name === SESSION_COOKIE);
    expect(cookie, "cookie de sessão").toBeDefined();
    return cookie!.value;
  } finally {
    await context.dispose();
  }
}

type APIRequestContextFactory = (options?: { extraHTTPHeaders?: Record<string, string> }) => Promise<APIRequestContext>;

/** A request context signed in on the instance at `url`. */
async function adminRequest(factory: { newContext: APIRequestContextFactory }, url: string, account: TestAccount): Promise<APIRequestContext> {
  const cookie = await signInCookie(factory, url, account);
  return factory.newContext({ extraHTTPHeaders: { cookie: `${SESSION_COOKIE}=${cookie}` } });
}

/** Opens `path` in a new page of `context`, waits for hydration and for its live-updates stream, and marks it. */
async function openLive(context: BrowserContext, base: string, pathname: string): Promise<Page> {
  const page = await context.newPage();
  const stream = page.waitForResponse((response) => new URL(response.url()).pathname === "/events");
  await page.goto(base + pathname);
  await waitForHydration(page);
  expect((await stream).status()).toBe(200);
  await markPage(page);
  return page;
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((entry) => entry.isFile()).map((entry) => entry.name);
}

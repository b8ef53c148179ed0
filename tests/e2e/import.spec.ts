/**
 * After `npm run import:firestore` on the sample export (tests/fixtures/firestore), run against the site's own
 * DATA_DIR / DATABASE_URL before the server starts: the original's `/article/{firestoreId}` links open the imported
 * articles, their media is the external Google Drive address (allowed by EXTERNAL_MEDIA_ORIGINS in the policy), and
 * the admin's form says the media is external.
 *
 * The browser has no internet: every request to another host is answered here (the sample JPEG for images, 404 for
 * anything else) and recorded, so nothing leaves the machine and the test still sees what the page asked for.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext } from "@playwright/test";
import { terminal } from "#app/i18n/pt-BR.ts";
import { expect, openPage, signInAsAdmin, t, test } from "./support/fixtures.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURES = path.join(ROOT, "tests/fixtures/firestore");
const SAMPLE_JPEG = fs.readFileSync(path.join(FIXTURES, "media/1ExKq9Zt_Fotografia-Final-Maracana.jpg"));
const ARTICLE = "Kx7vQ2mN9pLr4TsW8yZa";
const THUMBNAIL = "https://drive.google.com/thumbnail?id=1ExKq9Zt_Fotografia-Final-Maracana&sz=w1600";
const ORIGINS = "https://drive.google.com https://*.googleusercontent.com";

/** Answers every request to another host locally; returns the URLs asked for. */
async function keepOffline(context: BrowserContext): Promise<string[]> {
  const external: string[] = [];
  await context.route(
    (url) => url.hostname !== "127.0.0.1" && url.hostname !== "localhost",
    async (route) => {
      external.push(route.request().url());
      if (route.request().resourceType() === "image") await route.fulfill({ status: 200, contentType: "image/jpeg", body: SAMPLE_JPEG });
      else await route.fulfill({ status: 404, body: "" });
    },
  );
  return external;
}

test.describe("importação do produto original (Firestore)", () => {
  test("links antigos /article/{id} abrem a notícia importada, com a imagem externa do Google Drive", async ({ page, launchSite }) => {
    // The test's setup runs the real command as a child process (a fresh database's migrations, then the import)
    // before any page is opened: about 10 s of its own on an idle machine, three times that on a loaded one.
    test.slow();
    const site = await launchSite({
      // As the command advises below: Drive plus the other site a sponsor logo is on.
      env: { EXTERNAL_MEDIA_ORIGINS: `${ORIGINS} https://cdn.lojaverde.example` },
      async setup(services) {
        const database = services.config.database;
        const result = spawnSync(process.execPath, [path.join(ROOT, "scripts/import-firestore.ts"), FIXTURES], {
          cwd: ROOT,
          env: {
            ...process.env,
            DATA_DIR: services.config.dataDir,
            ...(database.kind === "postgres" ? { DATABASE_URL: database.url } : {}),
            SEED_DEMO: "0",
            NODE_ENV: "production",
            EXTERNAL_MEDIA_ORIGINS: ORIGINS,
          },
          encoding: "utf8",
          timeout: 60_000,
        });
        // The sample has malformed documents on purpose: exit code 2, the others imported.
        expect(result.status, result.stderr).toBe(2);
        expect(result.stdout).toContain("news: 5 importadas");
        // Drive is already allowed: the command lists only the sponsor logo's other site, to review (never a line to paste).
        expect(result.stdout).toContain(`  - https://cdn.lojaverde.example  ${terminal.import.summary.originCheck}`);
        expect(result.stdout).not.toContain("  - https://drive.google.com");
        expect(result.stdout).not.toContain("EXTERNAL_MEDIA_ORIGINS=");
      },
    });
    const external = await keepOffline(page.context());
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });

    const response = await openPage(page, site, `/article/${ARTICLE}`);
    expect(response.status()).toBe(200);
    const policy = response.headers()["content-security-policy"] ?? "";
    expect(policy).toContain(`img-src 'self' data: blob: ${ORIGINS} https://cdn.lojaverde.example;`);
    expect(policy).toContain(`media-src 'self' data: blob: ${ORIGINS} https://cdn.lojaverde.example;`);

    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Flamengo vence no Maracanã e assume a liderança");
    await expect(page.locator("article header").first()).toContainText(`${t.article.by} Ana Lima`);
    const image = page.locator("article img").first();
    await expect(image).toHaveAttribute("src", `${THUMBNAIL}#news-${ARTICLE}`);
    await expect(image).not.toHaveAttribute("srcset", /.+/);
    // Loaded (from the local answer above): the policy let the browser ask Drive for it.
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(64);
    expect(external).toContain(THUMBNAIL);
    // The imported sponsors' logos, external too, on every page.
    await expect.poll(() => external).toContain("https://cdn.lojaverde.example/logo.png");
    expect(violations).toEqual([]);

    // A document imported without media and with the original's defaults.
    await openPage(page, site, "/article/Bq3nR5tY7uI9oP1aS2dF");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Seleção feminina convocada para amistosos");
    await expect(page.locator("article header").first().getByText(t.news.defaultCategory, { exact: true })).toBeVisible();
    await expect(page.locator("article header").first()).toContainText(`${t.article.by} Redação Esporte em Foco`);

    // The refused document was not imported: its link is a 404.
    const refused = await page.goto(`${site.url}/article/malformado01`);
    expect(refused?.status()).toBe(404);

    // The admin's form marks the media as external.
    await signInAsAdmin(page, site);
    await openPage(page, site, `/edit-news/${ARTICLE}`);
    await expect(page.getByTestId("media-external")).toHaveText(t.newsForm.mediaExternal);
    await expect(page.getByTestId("media-current").locator("img")).toHaveAttribute("src", `${THUMBNAIL}#news-${ARTICLE}`);
  });
});

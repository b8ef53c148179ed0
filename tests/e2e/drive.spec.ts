/**
 * The Google Drive store (MEDIA_STORE=gdrive) in the browser: the real server, its GOOGLE_DRIVE_* URLs pointed at
 * the Drive contract server (tests/storage/drive-contract-server.ts) running in this test process. Not connected
 * until an admin clicks 'Conectar ao Google Drive' and consents on the (fake) Google page; then sponsors go to the
 * fake Drive and are served through /media; a revoked token brings the not-connected state back with
 * 'Falha ao fazer login no Google Drive. Tente novamente.' (and the iOS hint on an iPhone).
 */
import type { Page } from "@playwright/test";
import { makeTestImage } from "#tests/factories/news.ts";
import { type DriveContractServer, DRIVE_FILE_SCOPE, startDriveContractServer } from "#tests/storage/drive-contract-server.ts";
import { countRows, createNewsThroughApi, expect, openPage, signInAsAdmin, t, test as base } from "./support/fixtures.ts";
import { freePort, type RunningSite } from "#tests/factories/site.ts";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";

const test = base.extend<{ drive: DriveContractServer; site: RunningSite }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright needs the destructuring
  drive: async ({}, use) => {
    const drive = await startDriveContractServer();
    try {
      await use(drive);
    } finally {
      await drive.stop();
    }
  },
  site: async ({ launchSite, drive, page }, use) => {
    // Google sends the admin back to SITE_URL/admin/drive/callback: the port is chosen first.
    const port = await freePort();
    // SEED_DEMO on: with the Drive not connected the first start must still come up (the demo needs a store).
    const site = await launchSite({
      port,
      seedDemo: true,
      env: { ...drive.env(), SITE_URL: `http://127.0.0.1:${port}`, LOGIN_RATE_LIMIT: "1000" },
    });
    await signInAsAdmin(page, site);
    await use(site);
    await page.goto("about:blank");
  },
});

const connectButton = (page: Page) => page.getByRole("button", { name: t.storage.connect, exact: true });
const addButton = (page: Page) => page.getByRole("button", { name: /^(Adicionar patrocinador|Adicionando\.\.\.)$/ });
const imageInput = (page: Page) => page.locator('input[type="file"][name="image"]');
const footerSponsors = (page: Page) => page.getByRole("region", { name: t.footer.sponsorsTitle }).getByRole("listitem");
const connectedLine = (page: Page) => page.getByText(t.storage.connected, { exact: true });

async function expectNotConnected(page: Page, warning: string) {
  await expect(page.getByRole("heading", { name: t.storage.connectTitle })).toBeVisible();
  await expect(page.getByText(warning, { exact: true }).first()).toBeVisible();
  await expect(connectButton(page)).toBeVisible();
  await expect(connectedLine(page)).toHaveCount(0);
}

/** Clicks 'Conectar ao Google Drive' and answers the fake Google consent page. */
async function connectThroughGoogle(page: Page, site: RunningSite, drive: DriveContractServer, decision: "Permitir" | "Cancelar") {
  await connectButton(page).click();
  await page.waitForURL((url) => url.origin === drive.url);
  await expect(page.getByRole("heading", { name: "O app quer acessar sua Conta do Google" })).toBeVisible();
  await page.getByRole("button", { name: decision, exact: true }).click();
  await page.waitForURL((url) => url.origin === site.url && !url.pathname.startsWith("/admin/drive"));
}

test("não conectado → 'Conectar ao Google Drive' → consentimento → 'Google Drive conectado'; patrocinador vai para o Drive; token revogado volta a 'não conectado' com a falha", async ({
  page,
  site,
  drive,
  browser,
}) => {
  test.slow();

  // ------------------------------------------------------------------ not connected: cards, warnings, disabled add
  await openPage(page, site, "/SponsorManager");
  await expectNotConnected(page, t.sponsors.driveRequired);
  await expect(page.getByText(t.storage.loginFailed)).toHaveCount(0);
  await imageInput(page).setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: await makeTestImage(300, 300, "png") });
  await expect(page.getByTestId("sponsor-preview")).toBeVisible();
  await expect(addButton(page)).toBeDisabled();

  await openPage(page, site, "/add-news");
  await expectNotConnected(page, t.newsForm.driveRequired);
  // The API refuses uploads too (server side), with the spec's text.
  const refused = await page.context().request.post(`${site.url}/api/sponsors`, {
    multipart: { image: { name: "logo.png", mimeType: "image/png", buffer: await makeTestImage(100, 100, "png") } },
    headers: { origin: site.url },
  });
  expect(refused.status()).toBe(409);
  expect(await refused.text()).toContain(t.sponsors.driveRequired);
  expect(drive.files.size).toBe(0);

  // ------------------------------------------------------------------ connect from the news form, back to it
  await connectThroughGoogle(page, site, drive, "Permitir");
  expect(new URL(page.url()).pathname).toBe("/add-news");
  await expect(connectedLine(page)).toBeVisible();
  await expect(page.getByRole("heading", { name: t.storage.connectTitle })).toHaveCount(0);
  await expect(page.getByText(t.newsForm.driveRequired)).toHaveCount(0);
  const authorize = drive.calls("authorize")[0]!;
  expect(authorize.query).toMatchObject({ scope: DRIVE_FILE_SCOPE, access_type: "offline", prompt: "consent", response_type: "code" });
  expect(authorize.query.redirect_uri).toBe(`${site.url}/admin/drive/callback`);
  expect(drive.calls("exchange").map((call) => call.status)).toEqual([200]);

  // ------------------------------------------------------------------ a sponsor goes to the fake Drive, shown in the footer
  await openPage(page, site, "/SponsorManager");
  await expect(connectedLine(page)).toBeVisible();
  await expect(page.getByText(t.sponsors.driveRequired)).toHaveCount(0);
  await imageInput(page).setInputFiles({ name: "patrocinador.png", mimeType: "image/png", buffer: await makeTestImage(400, 400, "png") });
  await page.getByRole("region", { name: t.sponsors.addTitle }).getByLabel(t.sponsors.nameLabel, { exact: true }).fill("Loja do Drive");
  await addButton(page).click();
  await expect(page.getByTestId("sponsor-item")).toHaveCount(1, { timeout: 20_000 });
  expect(await countRows(site, "sponsors")).toBe(1);

  const stored = [...drive.files.values()];
  expect(stored.length).toBeGreaterThan(0);
  for (const file of stored) {
    expect(file.name).toMatch(/^[a-f0-9]{12}\/img\//);
    expect(file.parents).toEqual([drive.folderId]);
    expect(file.permissions).toEqual([{ id: "anyoneWithLink", type: "anyone", role: "reader" }]);
  }
  await expect(footerSponsors(page)).toHaveCount(1);
  const footerLogo = footerSponsors(page).first().getByRole("img", { name: "Loja do Drive" });
  await expect(footerLogo).toHaveAttribute("src", /^\/media\/[a-f0-9]{12}\/img\//);
  // Served by our /media route, streamed from Drive.
  await expect.poll(() => footerLogo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  const src = (await footerLogo.getAttribute("src"))!;
  const served = await page.request.get(site.url + src);
  expect(served.status()).toBe(200);
  const key = src.replace(/^\/media\//, "");
  const file = stored.find((candidate) => candidate.name === key);
  expect(file, key).toBeDefined();
  expect(Buffer.compare(await served.body(), file!.data)).toBe(0);
  expect(drive.calls("download").length).toBeGreaterThan(0);

  // A news item with a photo, through the editor's API: its variants land on Drive too.
  const before = new Set(drive.files.keys());
  const newsId = await createNewsThroughApi(
    page.context(),
    site,
    { title: "Notícia com foto no Drive" },
    {
      name: "foto.jpg",
      mimeType: "image/jpeg",
      buffer: await makeTestImage(900, 600),
    },
  );
  const added = [...drive.files.values()].filter((candidate) => !before.has(candidate.id));
  expect(added.length).toBeGreaterThan(0);
  await openPage(page, site, `/article/${newsId}`);
  const photo = page.locator("main img").first();
  await expect.poll(() => photo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  await openPage(page, site, "/SponsorManager");

  // ------------------------------------------------------------------ the token is revoked at Google
  drive.revokeAll();
  const filesBefore = drive.files.size;
  await imageInput(page).setInputFiles({ name: "outro.png", mimeType: "image/png", buffer: await makeTestImage(300, 300, "png") });
  await page.getByRole("region", { name: t.sponsors.addTitle }).getByLabel(t.sponsors.nameLabel, { exact: true }).fill("Outra loja");
  await addButton(page).click();
  await expect(page.getByText(t.sponsors.addFailed, { exact: true })).toBeVisible({ timeout: 20_000 });
  await expectNotConnected(page, t.sponsors.driveRequired);
  await expect(page.getByText(t.storage.loginFailed, { exact: true })).toBeVisible();
  await expect(page.getByText(t.storage.iosHint)).toHaveCount(0);
  await expect(addButton(page)).toBeDisabled();
  expect(drive.files.size).toBe(filesBefore);
  expect(await countRows(site, "sponsors")).toBe(1);

  // The news form says so too; on an iPhone, with the cookies and pop-ups hint.
  await openPage(page, site, "/add-news");
  await expectNotConnected(page, t.newsForm.driveRequired);
  await expect(page.getByText(t.storage.loginFailed, { exact: true })).toBeVisible();
  const iphone = await browser.newContext({ userAgent: IPHONE, locale: "pt-BR" });
  try {
    const phone = await iphone.newPage();
    await signInAsAdmin(phone, site);
    await openPage(phone, site, "/SponsorManager");
    await expect(phone.getByText(t.storage.loginFailed, { exact: true })).toBeVisible();
    await expect(phone.getByText(t.storage.iosHint, { exact: true })).toBeVisible();
    await phone.goto("about:blank");
  } finally {
    await iphone.close();
  }

  // ------------------------------------------------------------------ reconnect, then 'Desconectar' revokes the token
  await connectThroughGoogle(page, site, drive, "Permitir");
  await expect(connectedLine(page)).toBeVisible();
  await expect(page.getByText(t.storage.loginFailed)).toHaveCount(0);
  const revokesBefore = drive.calls("revoke").length;
  await page.getByRole("button", { name: t.storage.disconnect, exact: true }).click();
  await expect(connectButton(page)).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/add-news");
  await expect(page.getByText(t.storage.loginFailed)).toHaveCount(0);
  expect(
    drive
      .calls("revoke")
      .slice(revokesBefore)
      .map((call) => call.status),
  ).toEqual([200]);

  // ------------------------------------------------------------------ consent refused: the failure message
  await connectThroughGoogle(page, site, drive, "Cancelar");
  await expectNotConnected(page, t.newsForm.driveRequired);
  await expect(page.getByText(t.storage.loginFailed, { exact: true })).toBeVisible();
});

test("o retorno do Google com um state que não é desta sessão é recusado (nada é conectado)", async ({ page, site, drive }) => {
  // A code obtained elsewhere (e.g. by an attacker, for their own account) put in the admin's browser: the state
  // was not issued to this session, so the code is never exchanged.
  drive.consent = "auto";
  const consent = await fetch(
    `${drive.url}/o/oauth2/v2/auth?${new URLSearchParams({
      client_id: drive.clientId,
      redirect_uri: `${site.url}/admin/drive/callback`,
      response_type: "code",
      scope: DRIVE_FILE_SCOPE,
      access_type: "offline",
      state: "forjado",
    })}`,
    { redirect: "manual" },
  );
  expect(consent.status).toBe(302);
  const callback = consent.headers.get("location")!;
  expect(new URL(callback).searchParams.get("code")).toBeTruthy();
  await page.goto(callback);
  await expect(page).toHaveURL(`${site.url}/SponsorManager`);
  await expectNotConnected(page, t.sponsors.driveRequired);
  await expect(page.getByText(t.storage.loginFailed, { exact: true })).toBeVisible();
  expect(drive.calls("exchange")).toHaveLength(0);
});

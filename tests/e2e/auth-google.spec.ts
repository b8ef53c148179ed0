/**
 * "Entrar com Google" end to end, against a real OpenID Connect provider (oidc-provider on 127.0.0.1, see
 * support/oidc.ts) configured through GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET / GOOGLE_DISCOVERY_URL.
 */
import type { Page } from "@playwright/test";
import { runAdminCli } from "#app/.server/admins/admin-cli.server.ts";
import { expect, openPage, SESSION_COOKIE, siteQuery, t, test as base, withSiteServices, perWorker } from "./support/fixtures.ts";
import { type OidcProvider, startOidcProvider } from "./support/oidc.ts";
import { freePort, type RunningSite, startSite } from "#tests/factories/site.ts";

interface GoogleSite extends RunningSite {
  oidc: OidcProvider;
}

const test = base.extend<{ googleSite: GoogleSite }>({
  googleSite: perWorker("auth-google", async (onClose): Promise<GoogleSite> => {
    // The redirect URI registered at the provider names the site's address, so the port is chosen first.
    const port = await freePort();
    const siteUrl = `http://127.0.0.1:${port}`;
    const oidc = await startOidcProvider({ siteUrl });
    onClose(() => oidc.stop());
    // LOG_LEVEL=info: the access log is on, so the tests can check that no secret reaches it.
    const site = await startSite({ port, env: { ...oidc.siteEnv, LOGIN_RATE_LIMIT: "1000", LOG_LEVEL: "info" } });
    onClose(() => site.stop());
    return { ...site, oidc };
  }),
});

const googleButton = (page: Page) => page.getByRole("button", { name: "Entrar com Google", exact: true });

/** Clicks 'Entrar com Google' and goes through the provider's own pages (login, consent) back to the site. */
async function signInWithGoogle(page: Page, site: GoogleSite, login: string) {
  await googleButton(page).click();
  const onSite = (url: URL) => url.origin === site.url;
  await page.waitForURL((url) => !onSite(url) || url.searchParams.has("oauth") || !url.pathname.startsWith("/admin/login"));
  for (let step = 0; step < 4 && !onSite(new URL(page.url())); step++) {
    const loginField = page.locator('input[name="login"]');
    const consent = page.locator('input[name="prompt"][value="consent"]');
    await expect(loginField.or(consent).first()).toBeAttached();
    if (await loginField.count()) {
      await loginField.fill(login);
      await page.locator('input[name="password"]').fill("qualquer");
      await page.getByRole("button", { name: "Sign-in" }).click();
    } else {
      await page.getByRole("button", { name: "Continue" }).click();
    }
    await page.waitForLoadState();
  }
  await page.waitForURL((url) => onSite(url));
}

async function userByEmail(site: RunningSite, email: string) {
  const [user] = await siteQuery<{ id: string; email: string; name: string }>(site, 'SELECT id, email, name FROM "user" WHERE email = ?', email);
  const accounts = user
    ? await siteQuery<{ provider: string }>(site, 'SELECT "providerId" AS provider FROM account WHERE "userId" = ?', user.id)
    : [];
  const sessions = user ? (await siteQuery(site, 'SELECT id FROM session WHERE "userId" = ?', user.id)).length : 0;
  return { user, providers: accounts.map((account) => account.provider), sessions };
}

test("com GOOGLE_CLIENT_ID/SECRET definidos, o botão está ativo e sem a explicação", async ({ page, googleSite }) => {
  await openPage(page, googleSite, "/admin/login");
  await expect(googleButton(page)).toBeEnabled();
  await expect(page.getByText(t.auth.googleUnavailable)).toHaveCount(0);
});

test("Google: quem não é admin vê a recusa com o UID e sai; depois do grant entra e volta para a origem", async ({ page, googleSite }) => {
  const login = `reporter-${Date.now()}`;
  const email = `${login}@jornal.example`;
  googleSite.oidc.addAccount({ login, email, name: "Repórter Teste" });

  // First time: not an admin. The account is created, the session ended at once.
  await openPage(page, googleSite, "/admin/login");
  await signInWithGoogle(page, googleSite, login);
  await expect(page).toHaveURL(/\/admin\/login\?oauth=google/);
  const error = page.getByTestId("auth-error");
  await expect(error).toContainText("Usuário não autorizado. Apenas administradores podem fazer login.");
  const created = await userByEmail(googleSite, email);
  expect(created.user, "conta criada pelo Google").toBeDefined();
  expect(created.user!.name).toBe("Repórter Teste");
  expect(created.providers).toEqual(["google"]);
  expect(created.sessions, "nenhuma sessão fica").toBe(0);
  await expect(error.getByTestId("auth-uid")).toHaveText(`UID: ${created.user!.id}`);
  await expect(error).toContainText(`npm run admin -- grant ${created.user!.id}`);
  expect((await page.context().cookies()).find((cookie) => cookie.name === SESSION_COOKIE)).toBeUndefined();
  await page.goto(`${googleSite.url}/SponsorManager`);
  await expect(page).toHaveURL(`${googleSite.url}/admin/login?redirectTo=%2FSponsorManager`);

  // An admin grants access with the command shown, while the server runs.
  const output = await withSiteServices(googleSite, (services) => runAdminCli(["grant", created.user!.id, "--yes"], services));
  expect(output).toContain(`${email} (${created.user!.id}) agora é administrador.`);

  // Second time: admin. Back where they were going, signed in.
  await expect(googleButton(page)).toBeEnabled();
  await signInWithGoogle(page, googleSite, login);
  await expect(page).toHaveURL(`${googleSite.url}/SponsorManager`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.admin.sponsorsTitle);
  await expect(page.getByRole("button", { name: t.admin.menu })).toBeVisible();
  const cookie = (await page.context().cookies()).find((candidate) => candidate.name === SESSION_COOKIE);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  expect((await userByEmail(googleSite, email)).sessions).toBe(1);

  // Neither the client secret nor the authorization codes reach the server's log.
  const logs = googleSite.logs();
  expect(logs).toContain("/api/auth/callback/google?");
  expect(logs).not.toContain(googleSite.oidc.clientSecret);
  for (const [, query] of logs.matchAll(/\/api\/auth\/callback\/google\?([^"\s]*)/g)) {
    const params = new URLSearchParams(query);
    expect(params.get("code"), query).toBe("[oculto]");
    expect(params.get("state"), query).toBe("[oculto]");
  }

  // The site used PKCE (S256) and a nonce for each of its two authorizations.
  const codes = googleSite.oidc.issuedCodes.filter((code) => code.accountId === login);
  expect(codes).toHaveLength(2);
  for (const code of codes) {
    expect(code.codeChallengeMethod).toBe("S256");
    expect(code.codeChallenge).toBeTruthy();
    expect(code.nonce).toBeTruthy();
  }
});

test("Google: um segundo usuário, sem acesso, continua recusado (sem sessão)", async ({ page, googleSite }) => {
  const stamp = `${Date.now()}b`;
  const email = `leitor-${stamp}@jornal.example`;
  googleSite.oidc.addAccount({ login: `leitor-${stamp}`, email });
  await openPage(page, googleSite, "/admin/login?redirectTo=%2Fadd-news");
  await signInWithGoogle(page, googleSite, `leitor-${stamp}`);
  await expect(page.getByTestId("auth-error")).toContainText(t.auth.notAdmin);
  const { user, sessions } = await userByEmail(googleSite, email);
  await expect(page.getByTestId("auth-uid")).toHaveText(`UID: ${user!.id}`);
  expect(sessions).toBe(0);
  await page.goto(`${googleSite.url}/add-news`);
  await expect(page).toHaveURL(`${googleSite.url}/admin/login?redirectTo=%2Fadd-news`);
});

test("Google: cancelar no provedor volta com 'Falha na autenticação com Google.'", async ({ page, googleSite }) => {
  await openPage(page, googleSite, "/admin/login");
  await googleButton(page).click();
  await page.waitForURL((url) => url.origin === googleSite.oidc.issuer);
  // The provider's "abort" answers access_denied to the site.
  const abort = new URL(page.url());
  abort.pathname = `${abort.pathname.replace(/\/$/, "")}/abort`;
  await page.goto(abort.toString());
  await page.waitForURL((url) => url.origin === googleSite.url);
  await expect(page.getByTestId("auth-error")).toHaveText("Falha na autenticação com Google.");
  expect((await page.context().cookies()).find((cookie) => cookie.name === SESSION_COOKIE)).toBeUndefined();
});

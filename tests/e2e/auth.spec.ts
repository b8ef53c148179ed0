/**
 * Newsroom sign-in in the browser: the login screen and its views, e-mail + password sign-in (admins only),
 * registration, password policy, rate limit, the remembered origin (no open redirect), the admin drawer and the
 * admin-only 'Editar' button. Password reset: auth-reset.spec.ts. Google (OpenID Connect): auth-google.spec.ts.
 */
import type { Page } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { runAdminCli } from "#app/.server/admins/admin-cli.server.ts";
import { createAdmin, createUser, type TestAccount, uniqueEmail } from "#tests/factories/auth.ts";
import { createNews } from "#tests/factories/news.ts";
import {
  expect,
  openPage,
  runSql,
  SESSION_COOKIE,
  siteQuery,
  signInThroughPage,
  submitLogin,
  t,
  test as base,
  waitForHydration,
  withSiteServices,
  perWorker,
} from "./support/fixtures.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";

interface AuthSite extends RunningSite {
  admin: TestAccount;
  user: TestAccount;
  articleId: string;
}

const test = base.extend<{ authSite: AuthSite }>({
  authSite: perWorker("auth", async (onClose): Promise<AuthSite> => {
    let admin!: TestAccount;
    let user!: TestAccount;
    let articleId!: string;
    const site = await startSite({
      // Every test signs in from 127.0.0.1: keep the per-IP limit out of the way (its own test lowers it).
      env: { LOGIN_RATE_LIMIT: "1000" },
      async setup(services) {
        admin = await createAdmin(services, { password: "Senha-admin-1" });
        user = await createUser(services, { password: "Senha-leitor-1" });
        articleId = await createNews(services, { title: "Clássico decidido nos acréscimos", media: null });
      },
    });
    onClose(() => site.stop());
    return { ...site, admin, user, articleId };
  }),
});

const loginForm = (page: Page) => page.locator("form").filter({ has: page.locator('input[name="intent"][value="login"]') });
const registerForm = (page: Page) => page.locator("form").filter({ has: page.locator('input[name="intent"][value="register"]') });
const forgotForm = (page: Page) => page.locator("form").filter({ has: page.locator('input[name="intent"][value="forgot"]') });
const menuButton = (page: Page) => page.getByRole("button", { name: t.admin.menu, exact: true });
const authError = (page: Page) => page.getByTestId("auth-error");

async function sessionCookie(page: Page) {
  return (await page.context().cookies()).find((cookie) => cookie.name === SESSION_COOKIE);
}

/** A protected page still sends this browser to the login page, remembering where it was going. */
async function expectSignedOut(page: Page, site: RunningSite) {
  expect(await sessionCookie(page)).toBeUndefined();
  await page.goto(`${site.url}/add-news`);
  await expect(page).toHaveURL(`${site.url}/admin/login?redirectTo=%2Fadd-news`);
  await expect(menuButton(page)).toHaveCount(0);
}

/** The text of every mail written to the site's outbox for `to` (SMTP_URL unset), waiting up to 5 s for one. */
async function outboxMails(site: RunningSite, to: string): Promise<string[]> {
  const dir = path.join(site.dataDir, "outbox");
  const read = () =>
    (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
      .map((name) => fs.readFileSync(path.join(dir, name), "utf8"))
      .filter((text) => text.includes(to))
      // Quoted-printable soft line breaks would cut the link.
      .map((text) => text.replace(/=\r?\n/g, "").replace(/=3D/g, "="));
  await expect.poll(() => read().length, { timeout: 5000 }).toBeGreaterThan(0);
  return read();
}

async function sessionRows(site: RunningSite, userId: string): Promise<number> {
  return (await siteQuery(site, 'SELECT id FROM session WHERE "userId" = ?', userId)).length;
}

// ---------------------------------------------------------------------------------------- the login screen

test.describe("tela de login", () => {
  test("todos os textos, palavra por palavra; sem Google configurado, nem botão nem explicação", async ({ page, authSite }) => {
    const response = await openPage(page, authSite, "/admin/login");
    expect(response.status()).toBe(200);
    await expect(page).toHaveTitle(`${t.auth.title} | Esporte em Foco`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Acesso Administrativo");
    await expect(page.getByText("Apenas administradores autorizados podem fazer login", { exact: true })).toBeVisible();
    // Right under the spec's note (kept word for word), a line for the newsroom: reporters and editors sign in here.
    await expect(page.locator("h1 + p + p")).toHaveText(t.auth.newsroomNote);
    await expect(page.locator("h1 + p")).toHaveText("Apenas administradores autorizados podem fazer login");

    // Google sign-in is not configured on this server: no button, and no word of how to configure it.
    await expect(page.getByRole("button", { name: "Entrar com Google", exact: true })).toHaveCount(0);
    await expect(page.getByText(/GOOGLE_CLIENT/)).toHaveCount(0);

    const form = loginForm(page);
    await expect(form.getByLabel("E-mail", { exact: true })).toHaveAttribute("type", "email");
    await expect(form.getByLabel("Senha", { exact: true })).toHaveAttribute("type", "password");
    await expect(form.getByRole("button", { name: "Entrar", exact: true })).toBeEnabled();
    await expect(page.getByRole("link", { name: "Registrar-se", exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Esqueci minha senha", exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Voltar para Login", exact: true })).toHaveCount(0);
    await expect(page.getByText("Você já está logado como administrador.")).toHaveCount(0);
  });

  test("login, registro e esqueci a senha são exclusivos; 'Voltar para Login' volta", async ({ page, authSite }) => {
    await openPage(page, authSite, "/admin/login");
    await page.getByRole("link", { name: "Registrar-se", exact: true }).click();
    await expect(page).toHaveURL(`${authSite.url}/admin/login?view=register`);
    await expect(registerForm(page)).toBeVisible();
    await expect(registerForm(page).getByLabel(t.auth.confirmPassword, { exact: true })).toBeVisible();
    await expect(loginForm(page)).toHaveCount(0);
    await expect(forgotForm(page)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Entrar com Google" })).toHaveCount(0);
    await page.getByRole("link", { name: "Voltar para Login", exact: true }).click();
    await expect(page).toHaveURL(`${authSite.url}/admin/login`);
    await expect(loginForm(page)).toBeVisible();
    await expect(registerForm(page)).toHaveCount(0);

    await page.getByRole("link", { name: "Esqueci minha senha", exact: true }).click();
    await expect(page).toHaveURL(`${authSite.url}/admin/login?view=forgot`);
    await expect(forgotForm(page)).toBeVisible();
    await expect(forgotForm(page).getByRole("button", { name: t.auth.forgotSubmit })).toBeVisible();
    await expect(loginForm(page)).toHaveCount(0);
    await expect(registerForm(page)).toHaveCount(0);
    await page.getByRole("link", { name: "Voltar para Login", exact: true }).click();
    await expect(page).toHaveURL(`${authSite.url}/admin/login`);
    await expect(loginForm(page)).toBeVisible();
    await expect(forgotForm(page)).toHaveCount(0);

    // The views are addressable and keep the remembered origin.
    await openPage(page, authSite, "/admin/login?view=register&redirectTo=%2FSponsorManager");
    await expect(registerForm(page)).toBeVisible();
    await page.getByRole("link", { name: "Voltar para Login", exact: true }).click();
    await expect(page).toHaveURL(`${authSite.url}/admin/login?redirectTo=%2FSponsorManager`);
  });

  test("e-mail e senha são obrigatórios, e o e-mail precisa ser válido", async ({ page, authSite }) => {
    await openPage(page, authSite, "/admin/login");
    await loginForm(page).getByRole("button", { name: "Entrar", exact: true }).click();
    await expect(loginForm(page).getByText(t.auth.emailRequired)).toBeVisible();
    await expect(loginForm(page).getByText(t.auth.passwordRequired)).toBeVisible();
    await submitLogin(page, "nao-e-um-email", "x");
    await expect(loginForm(page).getByText(t.auth.emailInvalid)).toBeVisible();
    expect(await sessionCookie(page)).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------- signing in

test.describe("entrar com e-mail e senha", () => {
  test("o administrador entra, vai para /news-list e vê o botão do menu administrativo", async ({ page, authSite }) => {
    await signInThroughPage(page, authSite, authSite.admin.email, authSite.admin.password);
    await expect(page).toHaveURL(`${authSite.url}/news-list`);
    await expect(menuButton(page)).toBeVisible();
    const cookie = await sessionCookie(page);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", secure: false });

    // Signed in, the login page says so instead of showing the forms.
    await openPage(page, authSite, "/admin/login");
    await expect(page.getByRole("status")).toHaveText("Você já está logado como administrador.");
    await expect(loginForm(page)).toHaveCount(0);
  });

  test("volta para a página de origem: /SponsorManager → login → /SponsorManager", async ({ page, authSite }) => {
    await page.goto(`${authSite.url}/SponsorManager`);
    await expect(page).toHaveURL(`${authSite.url}/admin/login?redirectTo=%2FSponsorManager`);
    await waitForHydration(page);
    await submitLogin(page, authSite.admin.email, authSite.admin.password);
    await expect(page).toHaveURL(`${authSite.url}/SponsorManager`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.admin.sponsorsTitle);
    await expect(menuButton(page)).toBeVisible();
  });

  test("sem JavaScript também entra e volta para a origem", async ({ browser, authSite }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${authSite.url}/edit-news/${authSite.articleId}`);
      await expect(page).toHaveURL(`${authSite.url}/admin/login?redirectTo=%2Fedit-news%2F${authSite.articleId}`);
      await submitLogin(page, authSite.admin.email, authSite.admin.password);
      await expect(page).toHaveURL(`${authSite.url}/edit-news/${authSite.articleId}`);
    } finally {
      await context.close();
    }
  });

  for (const target of ["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)"]) {
    test(`redirectTo fora do site (${target}) leva a /news-list`, async ({ page, authSite }) => {
      await signInThroughPage(page, authSite, authSite.admin.email, authSite.admin.password, `?redirectTo=${encodeURIComponent(target)}`);
      await expect(page).toHaveURL(`${authSite.url}/news-list`);
      await expect(menuButton(page)).toBeVisible();
    });
  }

  test("o servidor também recusa um redirectTo fora do site enviado direto no formulário", async ({ page, authSite }) => {
    const response = await page.request.post(`${authSite.url}/admin/login`, {
      form: { intent: "login", email: authSite.admin.email, password: authSite.admin.password, redirectTo: "//evil.example/roubo" },
      headers: { origin: authSite.url },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toBe("/news-list");
  });

  test("caminhos que viram outro site depois de normalizados (/.//, /..//, %2F%2F) levam a /news-list, com e sem oauth=google", async ({
    page,
    authSite,
  }) => {
    const nasty = ["/.//evil.example/x", "/..//evil.example/x", "/%2e%2e//evil.example/x", "/%2F%2Fevil.example/x", "/\\evil.example/x"];
    for (const target of nasty) {
      const response = await page.request.post(`${authSite.url}/admin/login`, {
        form: { intent: "login", email: authSite.admin.email, password: authSite.admin.password, redirectTo: target },
        headers: { origin: authSite.url },
        maxRedirects: 0,
      });
      expect(response.status(), target).toBe(302);
      expect(response.headers().location, target).toBe("/news-list");
    }
    // Signed in now (the session cookie is in this page's jar): back from Google, the loader redirects.
    for (const target of nasty) {
      const response = await page.request.get(`${authSite.url}/admin/login?oauth=google&redirectTo=${encodeURIComponent(target)}`, {
        maxRedirects: 0,
      });
      expect(response.status(), target).toBe(302);
      expect(response.headers().location, target).toBe("/news-list");
    }
  });

  test("senha errada: 'Falha na autenticação com email e senha.' e nenhuma sessão", async ({ page, authSite }) => {
    await signInThroughPage(page, authSite, authSite.admin.email, "senha-errada");
    await expect(authError(page)).toHaveText("Falha na autenticação com email e senha.");
    await expect(page).toHaveURL(`${authSite.url}/admin/login`);
    await expectSignedOut(page, authSite);
  });

  test("quem não é administrador vê a recusa, o UID e o comando; e não fica logado", async ({ page, authSite }) => {
    const { user } = authSite;
    await signInThroughPage(page, authSite, user.email, user.password);
    const error = authError(page);
    await expect(error).toContainText("Usuário não autorizado. Apenas administradores podem fazer login.");
    await expect(error.getByTestId("auth-uid")).toHaveText(`UID: ${user.id}`);
    await expect(error).toContainText(`npm run admin -- grant ${user.id}`);
    await expect(error.getByText(t.auth.uidHint(user.id), { exact: true })).toBeVisible();
    expect(await sessionRows(authSite, user.id)).toBe(0);
    await expectSignedOut(page, authSite);
  });

  test("com a verificação em duas etapas ativada, o login pede o código do aplicativo", async ({ page, authSite }) => {
    const admin = await withSiteServices(authSite, (services) => createAdmin(services, { password: "Senha-2fa-1" }));
    const secret = await withSiteServices(authSite, async (services) => {
      const signedIn = await services.auth.signInWithPassword({
        email: admin.email,
        password: admin.password,
        ip: "198.51.100.7",
        headers: new Headers(),
      });
      if (!signedIn.ok) throw new Error(signedIn.message);
      const session = new Headers({
        cookie: signedIn.headers
          .getSetCookie()
          .map((line) => line.split(";")[0])
          .join("; "),
      });
      const started = await services.auth.startTwoFactor({ password: admin.password, headers: session });
      if (!started.ok) throw new Error(started.message);
      const key = new TextDecoder().decode(base32.decode(new URL(started.totpURI).searchParams.get("secret")!));
      const confirmed = await services.auth.confirmTwoFactor({ code: await createOTP(key).totp(), headers: session });
      if (!confirmed.ok) throw new Error(confirmed.message);
      return key;
    });
    // A stranger floods the second step without a challenge (no cookie): refused, and nothing is counted.
    for (let attempt = 0; attempt < 31; attempt++) {
      const flood = await fetch(`${authSite.url}/admin/login`, {
        method: "POST",
        headers: { Origin: authSite.url },
        body: new URLSearchParams({ intent: "2fa", code: "000000", redirectTo: "/news-list" }),
      });
      expect(flood.status).toBe(401);
    }
    await signInThroughPage(page, authSite, admin.email, admin.password);
    await expect(page).toHaveURL(`${authSite.url}/admin/login?view=2fa`);
    expect(await sessionCookie(page), "a senha sozinha não abre sessão").toBeUndefined();
    const form = page.locator("form").filter({ has: page.locator('input[name="intent"][value="2fa"]') });
    await form.getByLabel(t.auth.twoFactor.code, { exact: true }).fill("000000");
    await form.getByRole("button", { name: t.auth.twoFactor.verify, exact: true }).click();
    await expect(authError(page)).toHaveText(t.auth.twoFactor.invalidCode);
    await form.getByLabel(t.auth.twoFactor.code, { exact: true }).fill(await createOTP(secret).totp());
    await form.getByRole("button", { name: t.auth.twoFactor.verify, exact: true }).click();
    await expect(page).toHaveURL(`${authSite.url}/news-list`);
    await expect(menuButton(page)).toBeVisible();
    await page.goto(`${authSite.url}/admin/security`);
    await expect(page.getByTestId("two-factor-status")).toHaveText(t.auth.twoFactor.statusOn);
  });

  test("limite de tentativas (LOGIN_RATE_LIMIT=2): a 3ª tentativa mostra a mensagem de espera", async ({ page, launchSite }) => {
    let admin!: TestAccount;
    const site = await launchSite({
      env: { LOGIN_RATE_LIMIT: "2" },
      async setup(services) {
        admin = await createAdmin(services);
      },
    });
    for (let attempt = 1; attempt <= 2; attempt++) {
      await signInThroughPage(page, site, admin.email, `errada-${attempt}`);
      await expect(authError(page)).toHaveText(t.auth.emailLoginFailed);
    }
    // Even the right password waits now.
    await signInThroughPage(page, site, admin.email, admin.password);
    await expect(authError(page)).toHaveText("Muitas tentativas de login. Aguarde 15 minutos e tente novamente.");
    await expectSignedOut(page, site);
    // The refusal is a 429 that says when to come back.
    const refused = await page.request.post(`${site.url}/admin/login`, {
      form: { intent: "login", email: admin.email, password: admin.password, redirectTo: "/news-list" },
      headers: { Origin: site.url },
    });
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(800);
  });
});

// ------------------------------------------------------------------------------------------------ registering

test.describe("registro", () => {
  test("um novo usuário é registrado, mas não autorizado: mensagem, UID e nenhuma sessão", async ({ page, authSite }) => {
    const email = uniqueEmail("registro");
    await openPage(page, authSite, "/admin/login?view=register");
    const form = registerForm(page);
    await form.getByLabel("E-mail", { exact: true }).fill(email);
    await form.getByLabel("Senha", { exact: true }).fill("Senha-nova-1");
    await form.getByLabel(t.auth.confirmPassword, { exact: true }).fill("Senha-nova-1");
    await form.getByRole("button", { name: t.auth.registerSubmit, exact: true }).click();

    const error = authError(page);
    await expect(error).toContainText("Usuário registrado, mas não autorizado como admin.");
    await expect(error.getByTestId("auth-notice")).toHaveText(t.auth.registeredCheckEmail);
    const [row] = await siteQuery<{ id: string; emailVerified: number | boolean }>(
      authSite,
      'SELECT id, "emailVerified" FROM "user" WHERE email = ?',
      email,
    );
    expect(row, "a conta foi criada").toBeDefined();
    expect(Boolean(row!.emailVerified), "sem confirmar o e-mail").toBe(false);
    await expect(error.getByTestId("auth-uid")).toHaveText(`UID: ${row!.id}`);
    await expect(error).toContainText(`npm run admin -- grant ${row!.id}`);
    expect(await sessionRows(authSite, row!.id)).toBe(0);
    await expectSignedOut(page, authSite);
  });

  test("um estranho registra o e-mail da redação antes do operador: nunca vira administrador", async ({ page, authSite }) => {
    const newsroom = uniqueEmail("redacao");
    // The outsider registers the newsroom's address (shown on the privacy page) with a password of their own.
    await openPage(page, authSite, "/admin/login?view=register");
    const form = registerForm(page);
    await form.getByLabel("E-mail", { exact: true }).fill(newsroom);
    await form.getByLabel("Senha", { exact: true }).fill("Senha-intruso-1");
    await form.getByLabel(t.auth.confirmPassword, { exact: true }).fill("Senha-intruso-1");
    await form.getByRole("button", { name: t.auth.registerSubmit, exact: true }).click();
    await expect(authError(page)).toContainText(t.auth.registeredNotAdmin);
    const [outsider] = await siteQuery<{ id: string }>(authSite, 'SELECT id FROM "user" WHERE email = ?', newsroom);

    // The operator then runs the command the README gives, for that address: it refuses the unconfirmed account.
    const refused = await withSiteServices(authSite, (services) =>
      runAdminCli(["create", "--email", newsroom, "--password", "Senha-operador-1", "--yes"], services).then(
        () => "criou",
        (error: Error) => error.message,
      ),
    );
    expect(refused).toContain("nunca foi confirmado");
    expect(await siteQuery(authSite, "SELECT user_id FROM admins WHERE user_id = ?", outsider!.id)).toHaveLength(0);
    await signInThroughPage(page, authSite, newsroom, "Senha-intruso-1");
    await expect(authError(page)).toHaveText(t.auth.emailNotVerified);
    await expectSignedOut(page, authSite);

    // The operator replaces it: the outsider's password opens nothing, the operator's opens the newsroom.
    await withSiteServices(authSite, (services) =>
      runAdminCli(["create", "--email", newsroom, "--password", "Senha-operador-1", "--replace-unverified"], services),
    );
    await signInThroughPage(page, authSite, newsroom, "Senha-intruso-1");
    await expect(authError(page)).toHaveText(t.auth.emailLoginFailed);
    await expectSignedOut(page, authSite);
    await signInThroughPage(page, authSite, newsroom, "Senha-operador-1");
    await expect(page).toHaveURL(`${authSite.url}/news-list`);
    await expect(menuButton(page)).toBeVisible();
  });

  test("um estranho registra o e-mail da redação e o dono confirma sem querer: create --yes não dá acesso; só depois da nova senha pelo link", async ({
    page,
    authSite,
  }) => {
    // Register, confirm, two commands, a reset and three sign-ins: 20-24 s measured, 32 s with the machine at load 23.
    test.setTimeout(60_000);
    const newsroom = uniqueEmail("redacao-confirmada");
    const registered = await page.request.post(`${authSite.url}/admin/login`, {
      form: { intent: "register", email: newsroom, password: "Senha-intruso-1", confirmPassword: "Senha-intruso-1", redirectTo: "/news-list" },
      headers: { Origin: authSite.url },
    });
    expect(registered.status()).toBe(403);
    // The owner clicks the unexpected confirmation mail.
    const verify = /(http:\/\/\S+\/admin\/verify-email\?token=\S+)/.exec((await outboxMails(authSite, newsroom)).join("\n"))![1]!;
    await page.goto(verify.replace(/^http:\/\/[^/]+/, authSite.url));
    await expect(page.getByRole("status")).toContainText(t.auth.verifyDone);
    const [outsider] = await siteQuery<{ id: string }>(authSite, 'SELECT id FROM "user" WHERE email = ?', newsroom);

    // The operator runs the README's command with --yes: no access; a reset link goes to the address instead.
    const output = await withSiteServices(authSite, (services) =>
      runAdminCli(["create", "--email", newsroom, "--password", "Senha-operador-1", "--yes"], services),
    );
    expect(output).toContain(`npm run admin -- grant ${newsroom}`);
    expect(await siteQuery(authSite, "SELECT user_id FROM admins WHERE user_id = ?", outsider!.id)).toHaveLength(0);
    await signInThroughPage(page, authSite, newsroom, "Senha-intruso-1");
    await expect(authError(page)).toContainText(t.auth.notAdmin);

    // The owner sets a new password through the link; then grant works, and only the owner's password opens.
    const reset = /(http:\/\/\S+\/admin\/reset-password\?token=\S+)/.exec((await outboxMails(authSite, newsroom)).join("\n"))![1]!;
    await page.goto(reset.replace(/^http:\/\/[^/]+/, authSite.url));
    await page.getByLabel(t.auth.newPassword, { exact: true }).fill("Senha-dono-1");
    await page.getByLabel(t.auth.confirmPassword, { exact: true }).fill("Senha-dono-1");
    await page.getByRole("button", { name: t.auth.resetSubmit, exact: true }).click();
    await expect(page).toHaveURL(`${authSite.url}/admin/login?reset=ok`);
    await withSiteServices(authSite, (services) => runAdminCli(["grant", newsroom, "--yes"], services));
    await signInThroughPage(page, authSite, newsroom, "Senha-intruso-1");
    await expect(authError(page)).toHaveText(t.auth.emailLoginFailed);
    await signInThroughPage(page, authSite, newsroom, "Senha-dono-1");
    await expect(page).toHaveURL(`${authSite.url}/news-list`);
    await expect(menuButton(page)).toBeVisible();
  });

  test("o link de confirmação do e-mail mostra o UID para um administrador liberar", async ({ page, authSite }) => {
    const email = uniqueEmail("confirma");
    const response = await page.request.post(`${authSite.url}/admin/login`, {
      form: { intent: "register", email, password: "Senha-nova-1", confirmPassword: "Senha-nova-1", redirectTo: "/news-list" },
      headers: { Origin: authSite.url },
    });
    expect(response.status()).toBe(403);
    const [row] = await siteQuery<{ id: string }>(authSite, 'SELECT id FROM "user" WHERE email = ?', email);
    const mails = await outboxMails(authSite, email);
    const link = /(http:\/\/\S+\/admin\/verify-email\?token=\S+)/.exec(mails.join("\n"))?.[1];
    expect(link, "o e-mail de confirmação foi gravado na caixa de saída").toBeDefined();
    await page.goto(link!.replace(/^http:\/\/[^/]+/, authSite.url));
    await expect(page.getByRole("status")).toContainText(t.auth.verifyDone);
    await expect(page.getByTestId("auth-uid")).toHaveText(row!.id);
    // A link used twice, or forged, is refused.
    await page.goto(`${authSite.url}/admin/verify-email?token=forjado`);
    await expect(authError(page)).toHaveText(t.auth.verifyInvalid);
  });

  test("política de senha: cada regra violada com a sua mensagem; confirmação diferente", async ({ page, launchSite }) => {
    const site = await launchSite({
      env: { PASSWORD_MIN_LENGTH: "8", PASSWORD_REQUIRE_UPPERCASE: "1", PASSWORD_REQUIRE_NUMBER: "1", PASSWORD_REQUIRE_SYMBOL: "1" },
    });
    const email = uniqueEmail("politica");
    await openPage(page, site, "/admin/login?view=register");
    const form = registerForm(page);
    await form.getByLabel("E-mail", { exact: true }).fill(email);
    await form.getByLabel("Senha", { exact: true }).fill("abc");
    await form.getByLabel(t.auth.confirmPassword, { exact: true }).fill("abd");
    await form.getByRole("button", { name: t.auth.registerSubmit, exact: true }).click();

    const password = form.getByLabel("Senha", { exact: true });
    await expect(password).toHaveAttribute("aria-invalid", "true");
    const describedBy = await password.getAttribute("aria-describedby");
    const problems = page.locator(`[id="${describedBy}"] li`);
    await expect(problems).toHaveText([
      "A senha deve ter pelo menos 8 caracteres.",
      "A senha deve conter pelo menos uma letra maiúscula.",
      "A senha deve conter pelo menos um número.",
      "A senha deve conter pelo menos um símbolo (por exemplo ! @ # $).",
    ]);
    await expect(form.getByText(t.auth.passwordsDiffer)).toBeVisible();

    // One rule left: only its message.
    await form.getByLabel("Senha", { exact: true }).fill("Abcdefg1");
    await form.getByLabel(t.auth.confirmPassword, { exact: true }).fill("Abcdefg1");
    await form.getByRole("button", { name: t.auth.registerSubmit, exact: true }).click();
    await expect(problems).toHaveText(["A senha deve conter pelo menos um símbolo (por exemplo ! @ # $)."]);
    await expect(form.getByText(t.auth.passwordsDiffer)).toHaveCount(0);

    const count = (await siteQuery(site, 'SELECT id FROM "user" WHERE email = ?', email)).length;
    expect(count, "nenhuma conta criada com senha fora da política").toBe(0);

    // All rules met: registered (and, not being an admin, told so).
    await form.getByLabel("Senha", { exact: true }).fill("Abcdefg1!");
    await form.getByLabel(t.auth.confirmPassword, { exact: true }).fill("Abcdefg1!");
    await form.getByRole("button", { name: t.auth.registerSubmit, exact: true }).click();
    await expect(authError(page)).toContainText(t.auth.registeredNotAdmin);
  });
});

// ------------------------------------------------------------------------------------------ the admin drawer

test.describe("menu administrativo", () => {
  test("abre pela direita com 360 px e quatro itens; Esc fecha e devolve o foco", async ({ page, authSite }) => {
    await signInThroughPage(page, authSite, authSite.admin.email, authSite.admin.password);
    await expect(page).toHaveURL(`${authSite.url}/news-list`);
    const trigger = menuButton(page);
    await trigger.click();
    const drawer = page.getByRole("dialog");
    await expect(drawer).toBeVisible();
    await expect(drawer).toHaveCSS("width", "360px");
    // Opens from the right: its right edge is the viewport's (once the slide-in animation is over).
    const viewport = page.viewportSize()!;
    await expect
      .poll(async () => {
        const box = await drawer.boundingBox();
        return box ? [Math.round(box.x + box.width), Math.round(box.width), Math.round(box.y)] : null;
      })
      .toEqual([viewport.width, 360, 0]);

    const items = drawer.getByRole("navigation").getByRole("listitem");
    await expect(items).toHaveText(["Adicionar notícia", "Lista de notícias", "Gerenciar patrocinadores", "Sair"]);
    await expect(drawer.getByRole("link", { name: "Adicionar notícia" })).toHaveAttribute("href", "/add-news");
    await expect(drawer.getByRole("link", { name: "Lista de notícias" })).toHaveAttribute("href", "/news-list");
    await expect(drawer.getByRole("link", { name: "Gerenciar patrocinadores" })).toHaveAttribute("href", "/SponsorManager");
    await expect(drawer.getByRole("button", { name: "Sair" })).toBeVisible();

    await page.keyboard.press("Escape");
    await expect(drawer).toHaveCount(0);
    await expect(trigger).toBeFocused();
  });

  test("os itens navegam; 'Sair' encerra a sessão, vai para /admin/login e as páginas protegidas voltam a redirecionar", async ({
    page,
    authSite,
  }) => {
    await signInThroughPage(page, authSite, authSite.admin.email, authSite.admin.password);
    await expect(page).toHaveURL(`${authSite.url}/news-list`);
    const go = async (label: string, path: string) => {
      await menuButton(page).click();
      await page.getByRole("dialog").getByRole("link", { name: label, exact: true }).click();
      await expect(page).toHaveURL(`${authSite.url}${path}`);
      await expect(page.getByRole("dialog")).toHaveCount(0);
    };
    await go("Adicionar notícia", "/add-news");
    await go("Gerenciar patrocinadores", "/SponsorManager");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.admin.sponsorsTitle);
    await go("Lista de notícias", "/news-list");

    const before = await sessionRows(authSite, authSite.admin.id);
    expect(before).toBeGreaterThan(0);
    await menuButton(page).click();
    await page.getByRole("dialog").getByRole("button", { name: "Sair", exact: true }).click();
    await expect(page).toHaveURL(`${authSite.url}/admin/login`);
    await expect(loginForm(page)).toBeVisible();
    await expect(menuButton(page)).toHaveCount(0);
    expect(await sessionRows(authSite, authSite.admin.id), "a sessão foi apagada no servidor").toBe(before - 1);
    await expectSignedOut(page, authSite);
    await page.goto(`${authSite.url}/SponsorManager`);
    await expect(page).toHaveURL(`${authSite.url}/admin/login?redirectTo=%2FSponsorManager`);
  });

  test("visitantes não recebem o botão do menu", async ({ page, authSite }) => {
    const html = await (await page.request.get(`${authSite.url}/news-list`)).text();
    expect(html).not.toContain(t.admin.menu);
    await openPage(page, authSite, "/");
    await expect(menuButton(page)).toHaveCount(0);
  });
});

// ------------------------------------------------------------------------------------------------- 'Editar'

test.describe("botão Editar da notícia", () => {
  test("o administrador vê 'Editar', que leva a /edit-news/{id}", async ({ page, authSite }) => {
    await signInThroughPage(
      page,
      authSite,
      authSite.admin.email,
      authSite.admin.password,
      `?redirectTo=${encodeURIComponent(`/article/${authSite.articleId}`)}`,
    );
    await expect(page).toHaveURL(`${authSite.url}/article/${authSite.articleId}`);
    const edit = page.getByRole("link", { name: "Editar", exact: true });
    await expect(edit).toHaveAttribute("href", `/edit-news/${authSite.articleId}`);
    await edit.click();
    await expect(page).toHaveURL(`${authSite.url}/edit-news/${authSite.articleId}`);
  });

  test("visitantes nunca recebem 'Editar' no HTML", async ({ page, authSite, request }) => {
    const response = await request.get(`${authSite.url}/article/${authSite.articleId}`);
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toContain("Clássico decidido nos acréscimos");
    expect(html).not.toContain(`/edit-news/${authSite.articleId}`);
    expect(html).not.toMatch(/>\s*Editar\s*</);
    await openPage(page, authSite, `/article/${authSite.articleId}`);
    await expect(page.getByRole("link", { name: "Editar" })).toHaveCount(0);
  });

  test("quem não é administrador, mesmo com sessão, também não recebe 'Editar'", async ({ authSite, playwright }) => {
    // A session whose admin rights were removed behind its back (only the admins row goes).
    const context = await playwright.request.newContext();
    try {
      const extra = await createUserOnSite(authSite);
      await runSql(authSite, "INSERT INTO admins (user_id, created_at) VALUES (?, ?)", extra.id, new Date().toISOString());
      const login = await context.post(`${authSite.url}/admin/login`, {
        form: { intent: "login", email: extra.email, password: extra.password },
        headers: { origin: authSite.url },
        maxRedirects: 0,
      });
      expect(login.status()).toBe(302);
      await runSql(authSite, "DELETE FROM admins WHERE user_id = ?", extra.id);
      const html = await (await context.get(`${authSite.url}/article/${authSite.articleId}`)).text();
      expect(html).toContain("Clássico decidido nos acréscimos");
      expect(html).not.toContain(`/edit-news/${authSite.articleId}`);
      expect(html).not.toContain(t.admin.menu);
    } finally {
      await context.dispose();
    }
  });
});

function createUserOnSite(site: RunningSite): Promise<TestAccount> {
  return withSiteServices(site, (services) => createUser(services, { password: "Senha-extra-1" }));
}

/**
 * The admin of a running site and their session: the account (created on first use), signing in through the login
 * page or straight over HTTP, and the session cookie's name.
 */
import { type BrowserContext, expect, type Page } from "@playwright/test";
import { t as messages } from "#app/i18n/newsroom.ts";
import { createAdmin, type TestAccount } from "#tests/factories/auth.ts";
import { openPage } from "./pages.ts";
import type { RunningSite } from "#tests/factories/site.ts";
import { withSiteServices } from "#tests/factories/site-data.ts";

/** The session cookie's name (Better Auth, cookie prefix "eef"; "__Secure-" in front behind HTTPS). */
export const SESSION_COOKIE = "eef.session_token";

/** Fills and submits the e-mail + password form of /admin/login (the page must show the login view). */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  const form = page.locator("form").filter({ has: page.locator('input[name="intent"][value="login"]') });
  await form.getByLabel(messages.auth.email, { exact: true }).fill(email);
  await form.getByLabel(messages.auth.password, { exact: true }).fill(password);
  await form.getByRole("button", { name: messages.auth.signIn, exact: true }).click();
}

/** Opens /admin/login (with an optional query), waits for hydration and signs in. */
export async function signInThroughPage(page: Page, site: RunningSite, email: string, password: string, query = ""): Promise<void> {
  await openPage(page, site, `/admin/login${query}`);
  await submitLogin(page, email, password);
}

/** One admin account per running site (keyed by its data directory), created on first use. */
const siteAdmins = new Map<string, Promise<TestAccount>>();

/** The admin account of `site`: created (through Better Auth, as registration does) the first time it is asked for. */
export function adminOf(site: RunningSite): Promise<TestAccount> {
  let admin = siteAdmins.get(site.dataDir);
  if (!admin) {
    admin = withSiteServices(site, (services) => createAdmin(services, { password: "Senha-admin-1" }));
    siteAdmins.set(site.dataDir, admin);
    admin.catch(() => siteAdmins.delete(site.dataDir));
  }
  return admin;
}

/**
 * Signs `target` (a page's browser context, or a context) in as `site`'s admin (see `adminOf`), by posting the login
 * form over HTTP with the context's own request client: the session cookie lands in the browser's cookie jar, so
 * every page of that context (and `context.request`) is signed in. Fast: no login page is drawn.
 * Each call is one login attempt for the per-IP limit (LOGIN_RATE_LIMIT, 10 by default): sites that sign in often
 * should raise it.
 */
export async function signInAsAdmin(target: Page | BrowserContext, site: RunningSite, account?: TestAccount): Promise<TestAccount> {
  const admin = account ?? (await adminOf(site));
  const context = "context" in target ? target.context() : target;
  const response = await context.request.post(`${site.url}/admin/login`, {
    form: { intent: "login", email: admin.email, password: admin.password, redirectTo: "/news-list" },
    headers: { origin: site.url },
    maxRedirects: 0,
  });
  // A refusal with the site's log: the login answers 401 for wrong credentials and for an unexpected error alike.
  if (response.status() !== 302) {
    expect(
      response.status(),
      `login do administrador: ${(await response.text()).slice(0, 300)}\n--- log do site ---\n${site.logs().slice(-3000)}`,
    ).toBe(302);
  }
  expect(
    (await context.cookies(site.url)).some((cookie) => cookie.name === SESSION_COOKIE),
    "cookie de sessão",
  ).toBe(true);
  return admin;
}

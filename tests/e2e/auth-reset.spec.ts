/**
 * Password reset by e-mail, end to end: through a real SMTP receiver (SMTP_URL) and, without SMTP_URL, through the
 * outbox folder (DATA_DIR/outbox/*.eml, readable by the server's user only; the link is never logged).
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import { createAdmin, type TestAccount, uniqueEmail } from "#tests/factories/auth.ts";
import { expect, openPage, signInThroughPage, t, test as base, withSiteServices, perWorker } from "./support/fixtures.ts";
import { freePort, type RunningSite, type SiteOptions, startSite } from "#tests/factories/site.ts";
import { type SmtpReceiver, startSmtpReceiver } from "./support/smtp.ts";

interface MailSite extends RunningSite {
  smtp: SmtpReceiver;
  admin: TestAccount;
}

const test = base.extend<{ mailSite: MailSite }>({
  mailSite: perWorker("auth-reset", async (onClose): Promise<MailSite> => {
    const smtp = await startSmtpReceiver();
    onClose(() => smtp.stop());
    let admin!: TestAccount;
    const known = await onKnownUrl();
    const site = await startSite({
      port: known.port,
      // LOG_LEVEL=info: the access log is on, so the tests can check that no secret reaches it.
      env: { ...known.env, SMTP_URL: smtp.url, LOGIN_RATE_LIMIT: "1000", MAIL_FROM: "Redação <redacao@esporte.example>", LOG_LEVEL: "info" },
      async setup(services) {
        admin = await createAdmin(services, { password: "Senha-antiga-1" });
      },
    });
    onClose(() => site.stop());
    return { ...site, smtp, admin };
  }),
});

/** Start options for a site whose SITE_URL is the address the tests use (links in e-mails point to SITE_URL). */
async function onKnownUrl(): Promise<Pick<SiteOptions, "port"> & { env: Record<string, string> }> {
  const port = await freePort();
  return { port, env: { SITE_URL: `http://127.0.0.1:${port}` } };
}

const forgotForm = (page: Page) => page.locator("form").filter({ has: page.locator('input[name="intent"][value="forgot"]') });
const RESET_SENT = "Email de redefinição enviado! Verifique sua caixa de entrada e a caixa de spam.";

async function requestReset(page: Page, site: RunningSite, email: string) {
  await openPage(page, site, "/admin/login");
  await page.getByRole("link", { name: "Esqueci minha senha", exact: true }).click();
  await expect(page).toHaveURL(`${site.url}/admin/login?view=forgot`);
  await forgotForm(page).getByLabel("E-mail", { exact: true }).fill(email);
  await forgotForm(page).getByRole("button", { name: t.auth.forgotSubmit, exact: true }).click();
  await expect(page.getByRole("status")).toHaveText(RESET_SENT);
}

function resetLinkIn(text: string, site: RunningSite): string {
  const match = new RegExp(`${site.url.replace(/[.:/]/g, "\\$&")}/admin/reset-password\\?token=[^\\s]+`).exec(text);
  expect(match, `link de redefinição no e-mail:\n${text}`).not.toBeNull();
  return match![0];
}

test("redefinição completa pelo SMTP: e-mail, link, política, nova senha; a antiga deixa de valer", async ({ page, mailSite }) => {
  const { admin, smtp } = mailSite;
  // SMTP_URL is set: nothing goes to the outbox.
  await requestReset(page, mailSite, admin.email);
  const mail = await smtp.waitForMessage(admin.email);
  expect(mail.subject).toBe("Esporte em Foco: redefinição de senha");
  expect(mail.from).toBe("redacao@esporte.example");
  expect(mail.text).toContain("Para criar uma nova senha, abra o link abaixo (válido por 1 hora):");
  const link = resetLinkIn(mail.text, mailSite);
  expect(fs.existsSync(path.join(mailSite.dataDir, "outbox"))).toBe(false);

  const response = await page.goto(link);
  expect(response?.headers()["referrer-policy"]).toMatch(/(^|[,\n] *)no-referrer$/);
  expect(response?.headers()["cache-control"]).toMatch(/no-store/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.auth.resetTitle);
  const password = page.getByLabel(t.auth.newPassword, { exact: true });
  const confirm = page.getByLabel(t.auth.confirmPassword, { exact: true });

  // A policy violation first: its message, and the password is not changed.
  await password.fill("123");
  await confirm.fill("123");
  await page.getByRole("button", { name: t.auth.resetSubmit, exact: true }).click();
  await expect(page.getByText("A senha deve ter pelo menos 6 caracteres.", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(link);

  await password.fill("Senha-nova-2");
  await confirm.fill("Senha-nova-2");
  await page.getByRole("button", { name: t.auth.resetSubmit, exact: true }).click();
  await expect(page).toHaveURL(`${mailSite.url}/admin/login?reset=ok`);
  await expect(page.getByRole("status")).toHaveText(t.auth.resetDone);

  // The old password fails, the new one signs in.
  await signInThroughPage(page, mailSite, admin.email, "Senha-antiga-1");
  await expect(page.getByTestId("auth-error")).toHaveText(t.auth.emailLoginFailed);
  await signInThroughPage(page, mailSite, admin.email, "Senha-nova-2");
  await expect(page).toHaveURL(`${mailSite.url}/news-list`);
  await expect(page.getByRole("button", { name: t.admin.menu })).toBeVisible();

  // With SMTP, the reset token is a secret between the site and the mailbox: never in the server's log (the
  // access log included), nor the passwords.
  const token = new URL(link).searchParams.get("token")!;
  const logs = mailSite.logs();
  expect(logs, "o log de acesso está ligado").toContain("/admin/login");
  expect(logs).not.toContain(token);
  expect(logs).not.toContain(encodeURIComponent(token));
  expect(logs).not.toContain("Senha-nova-2");
  expect(logs).not.toContain("Senha-antiga-1");

  // The link was for one use only.
  await page.context().clearCookies();
  await page.goto(link);
  await page.getByLabel(t.auth.newPassword, { exact: true }).fill("Senha-outra-3");
  await page.getByLabel(t.auth.confirmPassword, { exact: true }).fill("Senha-outra-3");
  await page.getByRole("button", { name: t.auth.resetSubmit, exact: true }).click();
  await expect(page.getByTestId("auth-error")).toHaveText(t.auth.resetInvalid);
});

test("e-mail desconhecido: a mesma mensagem de sucesso, e nenhum e-mail enviado", async ({ page, mailSite }) => {
  const unknown = uniqueEmail("desconhecido");
  const before = mailSite.smtp.messages.length;
  await requestReset(page, mailSite, unknown);
  // A known address, asked right after, gets its mail; by then a mail for the unknown one would have arrived too.
  const known = await withFreshAccount(mailSite);
  await requestReset(page, mailSite, known.email);
  await mailSite.smtp.waitForMessage(known.email);
  expect(mailSite.smtp.messagesTo(unknown)).toEqual([]);
  expect(mailSite.smtp.messages.length).toBe(before + 1);
});

test("o formulário de redefinição exige o e-mail; o link sem token avisa que é inválido", async ({ page, mailSite }) => {
  await openPage(page, mailSite, "/admin/login?view=forgot");
  await forgotForm(page).getByRole("button", { name: t.auth.forgotSubmit, exact: true }).click();
  await expect(forgotForm(page).getByText(t.auth.emailRequired)).toBeVisible();
  await openPage(page, mailSite, "/admin/reset-password");
  await expect(page.getByTestId("auth-error")).toHaveText(t.auth.resetInvalid);
  await expect(page.getByRole("button", { name: t.auth.resetSubmit })).toBeDisabled();
  // An invitation's words come from a live invitation token only: a flag in the address changes nothing, and a
  // token made up in an invitation's shape says at once that the invitation is not valid.
  await openPage(page, mailSite, "/admin/reset-password?token=abc123&convite=1");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.auth.resetTitle);
  await expect(page.getByRole("button", { name: t.auth.resetSubmit })).toBeEnabled();
  await openPage(page, mailSite, "/admin/reset-password?token=convite-inventado");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.auth.inviteTitle);
  await expect(page.getByTestId("auth-error")).toHaveText(t.auth.inviteInvalid);
  await expect(page.getByRole("button", { name: t.auth.inviteSubmit })).toBeDisabled();
  await page.getByRole("link", { name: "Voltar para Login", exact: true }).click();
  await expect(page).toHaveURL(`${mailSite.url}/admin/login`);
});

test("sem SMTP_URL: o e-mail vai para DATA_DIR/outbox (só o dono lê), e o link nunca aparece no log", async ({ page, launchSite }) => {
  let admin!: TestAccount;
  const known = await onKnownUrl();
  const site = await launchSite({
    port: known.port,
    env: { ...known.env, LOG_LEVEL: "info" },
    async setup(services) {
      admin = await createAdmin(services, { password: "Senha-antiga-1" });
    },
  });
  const outbox = path.join(site.dataDir, "outbox");
  await requestReset(page, site, uniqueEmail("desconhecido"));
  await requestReset(page, site, admin.email);
  await expect.poll(() => (fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((name) => name.endsWith(".eml")) : []).length).toBe(1);
  const [file] = fs.readdirSync(outbox);
  const mail = await simpleParser(fs.readFileSync(path.join(outbox, file!)));
  expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((to) => to.address) : []).toEqual([admin.email]);
  const link = resetLinkIn(mail.text ?? "", site);
  const token = new URL(link).searchParams.get("token")!;
  // The log says where the mail went, never what it holds: whoever reads logs must not be able to reset a password.
  await expect.poll(() => site.logs()).toContain("mail written to outbox");
  expect(site.logs()).not.toContain(token);
  // The link works.
  await page.goto(link);
  await page.getByLabel(t.auth.newPassword, { exact: true }).fill("Senha-nova-2");
  await page.getByLabel(t.auth.confirmPassword, { exact: true }).fill("Senha-nova-2");
  await page.getByRole("button", { name: t.auth.resetSubmit, exact: true }).click();
  await expect(page).toHaveURL(`${site.url}/admin/login?reset=ok`);
  await signInThroughPage(page, site, admin.email, "Senha-nova-2");
  await expect(page).toHaveURL(`${site.url}/news-list`);
  // Secrets stay out of the log: no reset token, no password, no session token, no auth secret.
  const logs = site.logs();
  expect(logs).not.toContain(token);
  expect(logs).not.toContain(encodeURIComponent(token));
  expect(logs).not.toContain("Senha-nova-2");
  expect(logs).not.toContain("Senha-antiga-1");
  const secret = fs.readFileSync(path.join(site.dataDir, "secrets", "auth-secret"), "utf8").trim();
  expect(logs).not.toContain(secret);
  const session = (await page.context().cookies()).find((cookie) => cookie.name === "eef.session_token");
  expect(session).toBeDefined();
  expect(logs).not.toContain(decodeURIComponent(session!.value).split(".")[0]!);
});

function withFreshAccount(site: RunningSite): Promise<TestAccount> {
  return withSiteServices(site, (services) => createAdmin(services));
}

/** POSTs the forgot form for `email` from the loopback address `localAddress`; resolves with the status. */
function forgotFrom(site: RunningSite, email: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = new URLSearchParams({ intent: "forgot", email }).toString();
    const request = http.request(`${site.url}/admin/login`, {
      method: "POST",
      localAddress,
      headers: { Origin: site.url, "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(Buffer.byteLength(body)) },
    });
    request.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", reject);
    request.end(body);
  });
}

test("uma enxurrada de pedidos para o e-mail do administrador, de um endereço: só esse endereço espera; o dono pede de outro lugar; um e-mail só", async ({
  page,
  launchSite,
}) => {
  // Its own site and SMTP receiver to start, eleven requests and the reset page: more than the default 30 s allows
  // on a busy machine (measured 25 s on SQLite with the machine at load 17).
  test.setTimeout(60_000);
  const smtp = await startSmtpReceiver();
  try {
    let admin!: TestAccount;
    const known = await onKnownUrl();
    const site = await launchSite({
      port: known.port,
      env: { ...known.env, SMTP_URL: smtp.url },
      async setup(services) {
        admin = await createAdmin(services, { password: "Senha-antiga-1" });
      },
    });
    // LOGIN_RATE_LIMIT is 10 (the default): ten requests from the attacker's address, then it waits.
    for (let attempt = 0; attempt < 10; attempt++) expect(await forgotFrom(site, admin.email, "127.0.0.2")).toBe(200);
    expect(await forgotFrom(site, admin.email, "127.0.0.2")).toBe(429);
    // The admin, from another address: the usual answer, never "wait 15 minutes".
    await requestReset(page, site, admin.email);
    await smtp.waitForMessage(admin.email);
    // One mail per address per few minutes, whoever asks. Whether a request mails is settled before its answer (the
    // mail is handed to the mailer then, and sent in the background); a server stopping sends everything it was
    // handed before it exits with 0. So once it has, every mail these requests caused is in the receiver.
    expect(await site.stop(), "o servidor saiu por si, depois de enviar o que tinha").toEqual({ code: 0, signal: null });
    expect(smtp.messagesTo(admin.email)).toHaveLength(1);
  } finally {
    await smtp.stop();
  }
});

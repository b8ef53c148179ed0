/**
 * The team page (/equipe), end to end on a real SMTP receiver: an admin invites a reporter, the invitee sets a
 * password through the mailed link and signs in as a reporter; the admin makes them an editor, then revokes them
 * (with JavaScript: the confirm dialog; without: the server's confirmation step). Axe on the page.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { createMember, type TestAccount, uniqueEmail } from "#tests/factories/auth.ts";
import { expect, openPage, signInAsAdmin, signInThroughPage, t, test as base, withSiteServices, perWorker } from "./support/fixtures.ts";
import { freePort, type RunningSite, startSite } from "#tests/factories/site.ts";
import { type SmtpReceiver, startSmtpReceiver } from "./support/smtp.ts";

interface TeamSite extends RunningSite {
  smtp: SmtpReceiver;
}

const test = base.extend<{ teamSite: TeamSite }>({
  teamSite: perWorker("team", async (onClose): Promise<TeamSite> => {
    const smtp = await startSmtpReceiver();
    onClose(() => smtp.stop());
    // SITE_URL is the address the tests use: the mailed link points there.
    const port = await freePort();
    const site = await startSite({ port, env: { SITE_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url, LOGIN_RATE_LIMIT: "1000" } });
    onClose(() => site.stop());
    return { ...site, smtp };
  }),
});

const tt = t.team;

const memberRow = (page: Page, email: string) => page.getByTestId(`member-${email}`);

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  const report = serious
    .map((violation) => `[${violation.impact}] ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)
    .join("\n");
  expect(serious, `Violações de acessibilidade em /equipe:\n${report}`).toEqual([]);
  expect(results.passes.length).toBeGreaterThan(0);
}

test("o administrador convida um repórter, que define a senha pelo e-mail e entra; vira editor; é revogado", async ({ page, browser, teamSite }) => {
  // A whole journey (two browsers, a mail, three sign-ins with scrypt): 29.9 s of the default 30 on the loaded 2-core
  // machine, and one rehearsal timed out on it; three times the default, as Playwright's slow tests get.
  test.slow();
  const admin = await signInAsAdmin(page, teamSite);
  await openPage(page, teamSite, "/news-list");
  // The drawer's "Equipe" link, for admins.
  await page.getByRole("button", { name: t.admin.menu }).click();
  await page.getByTestId("admin-drawer").getByRole("link", { name: "Equipe", exact: true }).click();
  await expect(page).toHaveURL(`${teamSite.url}/equipe`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(tt.pageTitle);
  await expect(memberRow(page, admin.email)).toContainText("Administrador");
  await expectNoSeriousViolations(page);

  // Invite.
  const email = uniqueEmail("reporter-convidado");
  await page.getByLabel(tt.email, { exact: true }).fill(email);
  await page.getByLabel(tt.role, { exact: true }).selectOption("reporter");
  await page.getByRole("button", { name: tt.inviteSubmit }).click();
  await expect(page.getByTestId("banner-success")).toHaveText(tt.invited(email, "Repórter"));
  await expect(page.getByTestId("team-invites")).toContainText(email);
  await expect(page.getByTestId("team-log")).toContainText(tt.actions.invite("Repórter"));

  // The invitee's mail, and the link: set a password, sign in, a reporter.
  const mail = await teamSite.smtp.waitForMessage(email);
  expect(mail.subject).toBe(tt.mail.subject("Esporte em Foco"));
  expect(mail.subject).toContain("crie sua senha");
  expect(mail.text).toContain("crie sua senha por este link");
  const link = new RegExp(`${teamSite.url.replace(/[.:/]/g, "\\$&")}/admin/reset-password\\?token=\\S+`).exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  // The link carries nothing but its token: the token tells the page it is an invitation.
  expect([...new URL(link!).searchParams.keys()]).toEqual(["token"]);
  const invitee = await browser.newContext();
  try {
    const other = await invitee.newPage();
    await other.goto(link!);
    // An invitation's words: the invitee creates a password (a reset would "save a new one").
    await expect(other).toHaveTitle(t.auth.inviteTitle);
    await expect(other.getByRole("heading", { level: 1 })).toHaveText(t.auth.inviteTitle);
    await expect(other.getByRole("button", { name: t.auth.resetSubmit })).toHaveCount(0);
    await expect(other.getByTestId("auth-error")).toHaveCount(0);
    await other.getByLabel(t.auth.newPassword, { exact: true }).fill("Senha-do-reporter-1");
    await other.getByLabel(t.auth.confirmPassword, { exact: true }).fill("Senha-do-reporter-1");
    await other.getByRole("button", { name: t.auth.inviteSubmit, exact: true }).click();
    await expect(other).toHaveURL(`${teamSite.url}/admin/login?reset=ok&convite=1`);
    await expect(other.getByRole("status")).toHaveText(t.auth.inviteDone);
    await expect(other.getByText(t.auth.newsroomNote)).toBeVisible();
    // Used once, the link says the invitation is no longer valid (still in an invitation's words), at once.
    const spent = await invitee.newPage();
    await spent.goto(link!);
    await expect(spent.getByRole("heading", { level: 1 })).toHaveText(t.auth.inviteTitle);
    await expect(spent.getByTestId("auth-error")).toHaveText(t.auth.inviteInvalid);
    await expect(spent.getByRole("button", { name: t.auth.inviteSubmit, exact: true })).toBeDisabled();
    await spent.close();
    await signInThroughPage(other, teamSite, email, "Senha-do-reporter-1");
    await expect(other.getByRole("button", { name: t.admin.menu })).toBeVisible();
    // A reporter: the team page is refused.
    const refused = await other.goto(`${teamSite.url}/equipe`);
    expect(refused?.status()).toBe(403);

    // The admin sees the new member (with a sign-in) and makes them an editor.
    await page.reload();
    const row = memberRow(page, email);
    await expect(row.getByTestId("member-role")).toHaveText("Repórter");
    await expect(page.getByTestId("team-log")).toContainText(tt.actions.accept("Repórter"));
    await row.getByLabel(tt.changeRoleLabel(email)).selectOption("editor");
    await row.getByRole("button", { name: tt.changeRole }).click();
    await expect(page.getByTestId("banner-success")).toHaveText(tt.roleChanged("Repórter", "Editor"));
    await expect(memberRow(page, email).getByTestId("member-role")).toHaveText("Editor");
    await expect(page.getByTestId("team-log").locator("tbody tr").first()).toContainText(tt.actions.role("Repórter", "Editor"));
    await expect(page.getByTestId("team-log").locator("tbody tr").first()).toContainText(admin.email);

    // Revoke, through the dialog: the member's session ends.
    await memberRow(page, email).getByRole("button", { name: tt.revoke }).click();
    const dialog = page.getByTestId("revoke-dialog");
    await expect(dialog).toContainText(tt.revokeText(email));
    await dialog.getByRole("button", { name: tt.revokeConfirm }).click();
    await expect(page.getByTestId("banner-success")).toHaveText(tt.revoked);
    await expect(memberRow(page, email)).toHaveCount(0);
    await expect(page.getByTestId("team-log").locator("tbody tr").first()).toContainText(tt.actions.revoke("Editor"));
    await other.goto(`${teamSite.url}/add-news`);
    await expect(other).toHaveURL(/\/admin\/login\?redirectTo=/);
  } finally {
    await invitee.close();
  }
});

test("sem JavaScript: revogar pede confirmação numa etapa do servidor; o próprio administrador não tem ações", async ({ browser, teamSite }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    const admin = await signInAsAdmin(page, teamSite);
    const member: TestAccount = await withSiteServices(teamSite, (services) => createMember(services, "reporter"));
    await page.goto(`${teamSite.url}/equipe`);
    await expect(memberRow(page, admin.email).getByRole("button")).toHaveCount(0);
    await memberRow(page, member.email).getByRole("button", { name: tt.revoke }).click();
    const confirm = page.getByTestId("revoke-confirm");
    await expect(confirm).toContainText(tt.revokeText(member.email));
    // Nothing changed yet.
    await expect(memberRow(page, member.email)).toBeVisible();
    await confirm.getByRole("button", { name: tt.revokeConfirm }).click();
    await expect(page.getByTestId("banner-success")).toHaveText(tt.revoked);
    await expect(memberRow(page, member.email)).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test("no celular (390 px), a equipe cabe na tela: cada membro é um cartão com o nome de cada coluna, e mudar o papel funciona", async ({
  page,
  teamSite,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page, teamSite);
  const member: TestAccount = await withSiteServices(teamSite, (services) => createMember(services, "reporter"));
  await openPage(page, teamSite, "/equipe");
  // Nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const row = memberRow(page, member.email);
  const role = row.getByTestId("member-role");
  expect(await role.evaluate((cell) => getComputedStyle(cell, "::before").content)).toBe(`"${tt.colRole}"`);
  const change = row.getByRole("button", { name: tt.changeRole });
  const box = (await change.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await row.getByLabel(tt.changeRoleLabel(member.email)).selectOption("editor");
  await change.click();
  await expect(page.getByTestId("banner-success")).toBeVisible();
  await expect(memberRow(page, member.email).getByTestId("member-role")).toHaveText("Editor");
});

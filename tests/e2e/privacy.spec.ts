import { expect, openPage, t, test } from "./support/fixtures.ts";

const PLACEHOLDER = "[e-mail de contato ainda não definido]";

test.describe("política de privacidade", () => {
  test("trata de cookies, dados, uso, parceiros, opt-out e personalização", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/userLicence");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Política de Privacidade");
    await expect(page).toHaveTitle(new RegExp(`^${t.privacy.title}`));
    const headings = page.getByRole("heading", { level: 2 });
    for (const pattern of [/cookies/i, /dados coletados/i, /usamos os dados|uso/i, /parceiros de publicidade/i, /opt-out/i, /personaliza/i]) {
      await expect(headings.filter({ hasText: pattern }).first()).toBeVisible();
    }
    const policy = page.locator("article");
    // No implied consent: reading asks for nothing.
    await expect(policy).not.toContainText(/continuar navegando/i);
    await expect(policy).toContainText(/anonimizado/);
    await expect(policy).toContainText(t.privacy.sections(false)[4]!.text);
  });

  test("com parceiro de publicidade e encarregado: uma só explicação do que recusar faz, e o encarregado com o seu e-mail", async ({
    page,
    launchSite,
  }) => {
    const site = await launchSite({
      env: { ADSENSE_CLIENT: "ca-pub-1234567890", PRIVACY_OFFICER_NAME: "Maria Silva", PRIVACY_OFFICER_EMAIL: "privacidade@exemplo.com.br" },
    });
    await openPage(page, site, "/userLicence");
    const policy = page.locator("article");
    for (const section of t.privacy.sections(true)) await expect(policy).toContainText(section.text);
    // What refusing does is said once, in "Como recusar"; the rest points there.
    expect(((await policy.innerText()).match(/ficam vazios/g) ?? []).length).toBe(1);
    await expect(page.getByTestId("privacy-officer")).toHaveText(`${t.privacy.officerLead("Maria Silva")}: privacidade@exemplo.com.br.`);
    await expect(page.getByTestId("privacy-officer").getByRole("link")).toHaveAttribute("href", "mailto:privacidade@exemplo.com.br");
  });

  test("sem CONTACT_EMAIL a linha de contato fica de fora (nenhum marcador); diz o que é contado sem cookies", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/userLicence");
    await expect(page.getByText(PLACEHOLDER)).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 2, name: t.privacy.contactTitle })).toHaveCount(0);
    await expect(page.locator('a[href^="mailto:"]')).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 2, name: t.privacy.readsTitle })).toBeVisible();
    await expect(page.getByText(t.privacy.readsText)).toBeVisible();
    await expect(page.getByRole("heading", { name: t.privacy.offlineCopiesTitle })).toBeVisible();
    await expect(page.getByText(t.privacy.offlineCopiesText)).toBeVisible();
    // Without ADSENSE_CLIENT: no partner, no choice to make.
    await expect(page.getByTestId("ad-preferences")).toContainText(t.privacy.noAdPartner);
    await expect(page.getByRole("button", { name: t.consent.accept })).toHaveCount(0);
    // Without PRIVACY_OFFICER_NAME: no encarregado line.
    await expect(page.getByTestId("privacy-officer")).toHaveCount(0);
  });

  test("com CONTACT_EMAIL mostra um link mailto e nenhum marcador", async ({ page, launchSite }) => {
    const site = await launchSite({ env: { CONTACT_EMAIL: "contato@exemplo.com.br" } });
    await openPage(page, site, "/userLicence");
    const link = page.getByRole("link", { name: "contato@exemplo.com.br" });
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute("href", "mailto:contato@exemplo.com.br");
    await expect(page.getByTestId("privacy-contact")).toHaveText(`${t.privacy.contactLead} contato@exemplo.com.br.`);
    await expect(page.getByText(PLACEHOLDER)).toHaveCount(0);
  });
});

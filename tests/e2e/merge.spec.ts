/**
 * "Salvar mesmo assim" (issue 18): two editors in two browsers on the same story. The second save writes only what
 * its editor changed, over the first one's save; a field both changed is chosen side by side before anything is
 * written.
 */
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "@playwright/test";
import { createAdmin, type TestAccount } from "#tests/factories/auth.ts";
import { createNews } from "#tests/factories/news.ts";
import { expect, fillBody, openPage, siteQuery, signInAsAdmin, t, test as base } from "./support/fixtures.ts";
import type { RunningSite } from "#tests/factories/site.ts";

const test = base.extend<{ site: RunningSite & { articleId: string; bruno: TestAccount }; ana: BrowserContext; bruno: BrowserContext }>({
  site: async ({ launchSite }, use) => {
    let articleId = "";
    let bruno: TestAccount | null = null;
    const site = await launchSite({
      env: { LOGIN_RATE_LIMIT: "1000" },
      async setup(services) {
        articleId = await createNews(services, { title: "Título original", subtitle: "Resumo original", media: null });
        bruno = await createAdmin(services, { name: "Bruno Editor" });
      },
    });
    await use({ ...site, articleId, bruno: bruno! });
  },
  ana: async ({ browser, site }, use) => {
    const context = await browser.newContext();
    await signInAsAdmin(context, site);
    await use(context);
    await closeAll(context);
  },
  bruno: async ({ browser, site }, use) => {
    const context = await browser.newContext();
    await signInAsAdmin(context, site, site.bruno);
    await use(context);
    await closeAll(context);
  },
});

// Two browsers, each with its own pages, against a server of its own: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 120_000 });

async function closeAll(context: BrowserContext) {
  for (const page of context.pages()) await page.goto("about:blank").catch(() => undefined);
  await context.close();
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const save = (page: Page) => page.getByRole("button", { name: t.newsForm.submitEdit, exact: true }).click();

async function stored(site: RunningSite & { articleId: string }) {
  const [row] = await siteQuery<{ title: string; subtitle: string; full_content: string; version: number | string }>(
    site,
    "SELECT title, subtitle, full_content, version FROM news WHERE id = ?",
    site.articleId,
  );
  return { ...row!, version: Number(row!.version) };
}

test("A e B editam a mesma notícia: “Salvar mesmo assim” mantém o título de B e grava o resumo e o corpo de A; depois os dois mudam o título e A escolhe lado a lado", async ({
  site,
  ana,
  bruno,
}) => {
  const a = await ana.newPage();
  const b = await bruno.newPage();
  await openPage(a, site, `/edit-news/${site.articleId}`);
  await openPage(b, site, `/edit-news/${site.articleId}`);

  // B changes the title and saves.
  await field(b, t.newsForm.title).fill("Título do Bruno");
  await save(b);
  await expect(b.getByTestId("banner-success")).toBeVisible();
  await expect.poll(async () => (await stored(site)).title).toBe("Título do Bruno");

  // A, on the version it opened, changes the summary and the body: a conflict, then "Salvar mesmo assim".
  await field(a, t.newsForm.subtitle).fill("Resumo da Ana");
  await fillBody(a, "Corpo escrito pela Ana.");
  await save(a);
  const conflict = a.getByTestId("conflict");
  await expect(conflict).toContainText(t.newsForm.conflictChanged([t.newsForm.conflictFields.title!]));
  await conflict.getByRole("button", { name: t.newsForm.conflictOverwrite }).click();
  await expect(a.getByTestId("banner-success")).toBeVisible();
  expect(await stored(site)).toEqual({ title: "Título do Bruno", subtitle: "Resumo da Ana", full_content: "Corpo escrito pela Ana.", version: 3 });

  // Both open the story again and both change the title; B saves first.
  await openPage(a, site, `/edit-news/${site.articleId}`);
  await openPage(b, site, `/edit-news/${site.articleId}`);
  await field(b, t.newsForm.title).fill("Título do Bruno, segunda versão");
  await save(b);
  await expect(b.getByTestId("banner-success")).toBeVisible();
  await expect.poll(async () => (await stored(site)).version).toBe(4);

  await field(a, t.newsForm.title).fill("Título da Ana");
  await field(a, t.newsForm.subtitle).fill("Resumo da Ana, revisto");
  await save(a);
  await a.getByTestId("conflict").getByRole("button", { name: t.newsForm.conflictOverwrite }).click();
  // The title both changed: side by side, mine and theirs (whose, and when); nothing saved until chosen.
  const choice = a.getByTestId("merge-conflict");
  await expect(choice).toContainText(t.newsForm.mergeConflict);
  const title = choice.getByTestId("merge-field-title");
  await expect(title.getByTestId("merge-mine")).toContainText("Título da Ana");
  await expect(title.getByTestId("merge-theirs")).toContainText("Título do Bruno, segunda versão");
  await expect(title.getByTestId("merge-theirs")).toContainText("Bruno Editor");
  await expect(choice.getByTestId("merge-field-subtitle")).toHaveCount(0);
  const saveChoices = choice.getByRole("button", { name: t.newsForm.mergeSave });
  await expect(saveChoices).toBeDisabled();
  expect(await stored(site)).toMatchObject({ title: "Título do Bruno, segunda versão", subtitle: "Resumo da Ana", version: 4 });
  // The choice passes axe (each field a group with its name, each side a labelled radio).
  const axe = await new AxeBuilder({ page: a }).include('[data-testid="merge-conflict"]').analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);

  await title.getByLabel(t.newsForm.mergeKeepMine).check();
  await saveChoices.click();
  await expect(a.getByTestId("banner-success")).toBeVisible();
  expect(await stored(site)).toEqual({
    title: "Título da Ana",
    subtitle: "Resumo da Ana, revisto",
    full_content: "Corpo escrito pela Ana.",
    version: 5,
  });
});

test("sem JavaScript não há mesclagem, mas nada é revertido: o conflito é avisado e a página mostra a versão salva", async ({
  browser,
  site,
  bruno,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    await signInAsAdmin(context, site);
    const a = await context.newPage();
    await a.goto(`${site.url}/edit-news/${site.articleId}`);
    await expect(a.locator("html[data-hydrated]")).toHaveCount(0);
    // B changes the title and saves while A's page (no JavaScript) is open on version 1.
    const b = await bruno.newPage();
    await openPage(b, site, `/edit-news/${site.articleId}`);
    await field(b, t.newsForm.title).fill("Título do Bruno");
    await save(b);
    await expect(b.getByTestId("banner-success")).toBeVisible();
    await expect.poll(async () => (await stored(site)).version).toBe(2);

    await field(a, t.newsForm.subtitle).fill("Resumo da Ana");
    await save(a);
    await expect(a.getByTestId("banner-error")).toContainText(t.newsForm.conflict);
    await expect(a.getByTestId("banner-error")).toContainText(t.newsForm.conflictNoScript);
    // The page now holds the saved version (B's title), and B's title was not reverted.
    await expect(field(a, t.newsForm.title)).toHaveValue("Título do Bruno");
    expect(await stored(site)).toMatchObject({ title: "Título do Bruno", subtitle: "Resumo original", version: 2 });
  } finally {
    await context.close();
  }
});

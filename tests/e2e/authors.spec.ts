/**
 * Authors as people, in the browser against the real server (SQLite, or PostgreSQL with TEST_DATABASE=postgres): a
 * reporter fills in their profile (name, bio, photo, links) from "Meu perfil", writes a story signed by themself (the
 * form's default) and sends it for review; an editor publishes it. A reader then sees the byline box under the story,
 * the person page at /autor/{slug} and the author as a `Person` in the JSON-LD. A free-text author keeps the plain
 * author page, and the reporter is offered no "Editar" (nor "Excluir") on a story that is not theirs.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { newsInputSchema } from "#app/lib/news-schema.ts";
import { createMember, type TestAccount } from "#tests/factories/auth.ts";
import { makeTestImage } from "#tests/factories/news.ts";
import { expect, openPage, siteQuery, signInAsAdmin, signInThroughPage, t, test as base, withSiteServices } from "./support/fixtures.ts";
import type { RunningSite } from "#tests/factories/site.ts";
import { memberActor } from "#app/.server/auth/permissions.server.ts";

interface AuthorsSite extends RunningSite {
  reporter: TestAccount;
  editor: TestAccount;
  /** A draft the editor owns: the reporter may not change it. */
  editorDraft: string;
}

const EDITOR_DRAFT = "Rascunho do editor que o repórter não altera";

const test = base.extend<{ site: AuthorsSite }>({
  site: async ({ launchSite }, use) => {
    let reporter!: TestAccount;
    let editor!: TestAccount;
    let editorDraft = "";
    const site = await launchSite({
      env: { LOGIN_RATE_LIMIT: "1000" },
      async setup(services) {
        reporter = await createMember(services, "reporter", { password: "Senha-reporter-1", name: "rita" });
        editor = await createMember(services, "editor", { password: "Senha-editor-1", name: "edu" });
        const input = newsInputSchema.parse({
          title: EDITOR_DRAFT,
          subtitle: "Só do editor",
          fullContent: "Texto",
          category: "Tênis",
          status: "draft",
        });
        editorDraft = (await services.newsEditor.createNews(input, null, memberActor({ userId: editor.id, role: "editor" }))).id;
      },
    });
    await use({ ...site, reporter, editor, editorDraft });
  },
});

test.describe.configure({ timeout: 150_000 });

async function closeAll(context: BrowserContext) {
  for (const page of context.pages()) await page.goto("about:blank").catch(() => undefined);
  await context.close();
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

function jsonLdOf(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].flatMap((match) => JSON.parse(match[1]!));
}

test("perfil do repórter, notícia assinada por ele, caixa de autor, página da pessoa e Person no JSON-LD; autor livre continua como antes", async ({
  site,
  browser,
}) => {
  const suffix = Date.now().toString(36);
  const name = `Rita Repórter ${suffix}`;
  const slug = `rita-reporter-${suffix}`;
  const bio = "Cobre vôlei e tênis desde 2015.";
  const title = `Virada no vôlei ${suffix}`;
  const freeTitle = `Nota da agência ${suffix}`;
  const reporterContext = await browser.newContext();
  const editorContext = await browser.newContext();
  const readerContext = await browser.newContext();
  try {
    // The reporter opens "Meu perfil" from the drawer.
    const reporter = await reporterContext.newPage();
    await signInThroughPage(reporter, site, site.reporter.email, site.reporter.password, "?redirectTo=%2Fnews-list");
    await expect(reporter).toHaveURL(/\/news-list$/);
    await reporter.getByRole("button", { name: t.admin.menu, exact: true }).click();
    await reporter.getByTestId("admin-drawer").getByRole("link", { name: t.admin.profile }).click();
    await expect(reporter).toHaveURL(/\/perfil$/);
    await expect(reporter.getByRole("heading", { name: t.profile.pageTitle })).toBeVisible();

    // A link that is not http(s) is refused by the server, with the field's message.
    await field(reporter, t.profile.displayName).fill(name);
    await field(reporter, t.profile.bio).fill(bio);
    await field(reporter, t.profile.linkSite).fill("javascript:alert(1)");
    await reporter.getByRole("button", { name: t.profile.save }).click();
    await expect(reporter.locator("#perfil-linkSite-erro")).toHaveText(t.profile.linkInvalid);
    expect(await siteQuery(site, "SELECT user_id FROM member_profiles")).toEqual([]);

    await field(reporter, t.profile.displayName).fill(name);
    await field(reporter, t.profile.bio).fill(bio);
    await field(reporter, t.profile.linkX).fill("https://x.com/rita");
    await field(reporter, t.profile.linkSite).fill("https://rita.example/");
    await field(reporter, t.profile.photo).setInputFiles({ name: "rita.jpg", mimeType: "image/jpeg", buffer: await makeTestImage(300, 300) });
    await reporter.getByRole("button", { name: t.profile.save }).click();
    await expect(reporter.getByTestId("banner-success")).toHaveText(t.profile.saved);
    const [profile] = await siteQuery<{ slug: string; photo_media_id: string | null; link_site: string }>(
      site,
      "SELECT slug, photo_media_id, link_site FROM member_profiles WHERE user_id = ?",
      site.reporter.id,
    );
    expect(profile).toMatchObject({ slug, link_site: "https://rita.example/" });
    expect(profile!.photo_media_id).not.toBeNull();

    // A new story is signed by the reporter (the list's default for them); they send it for review.
    await openPage(reporter, site, "/add-news");
    await expect(reporter.getByTestId("author-choice")).toHaveValue(name);
    await expect(reporter.getByTestId("author-choice").locator("option", { hasText: "edu" })).toHaveCount(1);
    await field(reporter, t.newsForm.title).fill(title);
    await field(reporter, t.newsForm.subtitle).fill("O time virou o jogo no quinto set");
    await field(reporter, t.newsForm.fullContent).fill("Relato do jogo, ponto a ponto.");
    await field(reporter, t.newsForm.category).fill("Vôlei");
    await reporter.getByRole("button", { name: t.newsForm.submitReview, exact: true }).click();
    await expect(reporter).toHaveURL(/\/edit-news\/[^/?]+\?salva=review/);
    const [story] = await siteQuery<{ id: string; author: string; author_user_id: string }>(
      site,
      "SELECT id, author, author_user_id FROM news WHERE title = ?",
      title,
    );
    expect(story).toMatchObject({ author: name, author_user_id: site.reporter.id });

    // Their own story in review: "Editar" on its page. The editor's draft: none, and no "Excluir" on its card.
    await openPage(reporter, site, `/article/${story!.id}`);
    await expect(reporter.getByRole("link", { name: t.article.edit })).toBeVisible();
    await openPage(reporter, site, `/article/${site.editorDraft}`);
    await expect(reporter.getByRole("heading", { name: EDITOR_DRAFT })).toBeVisible();
    await expect(reporter.getByRole("link", { name: t.article.edit })).toHaveCount(0);
    await openPage(reporter, site, "/news-list");
    await expect(reporter.getByRole("button", { name: `${t.newsAdmin.delete}: ${title}` })).toBeVisible();
    await expect(reporter.getByRole("button", { name: `${t.newsAdmin.delete}: ${EDITOR_DRAFT}` })).toHaveCount(0);

    // The editor publishes it; the editor also publishes a story by an agency (a free-text author).
    await signInAsAdmin(editorContext, site, site.editor);
    const editor = await editorContext.newPage();
    await openPage(editor, site, `/edit-news/${story!.id}`);
    await expect(editor.getByTestId("author-choice")).toHaveValue(name);
    await editor.getByRole("button", { name: t.newsForm.submitCreate, exact: true }).click();
    await expect(editor.getByTestId("banner-success")).toBeVisible();
    await expect
      .poll(async () => (await siteQuery<{ status: string }>(site, "SELECT status FROM news WHERE id = ?", story!.id))[0]?.status)
      .toBe("published");

    await openPage(editor, site, "/add-news");
    await expect(editor.getByTestId("author-choice")).toHaveValue("");
    // Picking a member writes their name in the author field; typing another name leaves the list on "Outro".
    await editor.getByTestId("author-choice").selectOption({ label: name });
    await expect(field(editor, t.newsForm.author)).toHaveValue(name);
    await field(editor, t.newsForm.author).fill("Agência Placar");
    await expect(editor.getByTestId("author-choice")).toHaveValue("");
    await field(editor, t.newsForm.title).fill(freeTitle);
    await field(editor, t.newsForm.subtitle).fill("Texto de agência");
    await field(editor, t.newsForm.fullContent).fill("Nota distribuída pela agência.");
    await field(editor, t.newsForm.category).fill("Vôlei");
    await editor.getByRole("button", { name: t.newsForm.submitCreate, exact: true }).click();
    await expect(editor.getByTestId("banner-success")).toBeVisible();
    const [free] = await siteQuery<{ id: string; author: string; author_user_id: string | null; status: string }>(
      site,
      "SELECT id, author, author_user_id, status FROM news WHERE title = ?",
      freeTitle,
    );
    expect(free).toMatchObject({ author: "Agência Placar", author_user_id: null, status: "published" });

    // A reader: the byline box under the story, with the photo, the name to the person page, and the bio.
    const reader = await readerContext.newPage();
    const response = await openPage(reader, site, `/article/${story!.id}`);
    const box = reader.getByTestId("author-box");
    await expect(box).toBeVisible();
    await expect(box.getByText(bio)).toBeVisible();
    await expect(box.getByRole("img", { name: t.person.photoAlt(name) })).toBeVisible();
    const ld = jsonLdOf(await response.text()).find((item) => item["@type"] === "NewsArticle");
    expect(ld?.author).toMatchObject({
      "@type": "Person",
      name,
      url: expect.stringMatching(new RegExp(`^https?://[^/]+/autor/${slug}$`)),
      sameAs: ["https://x.com/rita", "https://rita.example/"],
    });
    expect(String((ld?.author as { image?: string } | undefined)?.image)).toMatch(/^https?:\/\//);

    // The person page: photo, name, bio and links above their stories.
    await box.getByRole("link", { name }).click();
    await expect(reader).toHaveURL(new RegExp(`/autor/${slug}$`));
    const person = reader.getByTestId("person-header");
    await expect(person.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(person.getByText(bio)).toBeVisible();
    await expect(person.getByRole("link", { name: t.person.links.x })).toHaveAttribute("href", "https://x.com/rita");
    await expect(person.getByRole("link", { name: t.person.links.site })).toHaveAttribute("href", "https://rita.example/");
    await expect(reader.getByRole("link", { name: title })).toBeVisible();

    // The free-text author: no byline box, a bare Person in the JSON-LD, and the plain author page.
    const freeResponse = await openPage(reader, site, `/article/${free!.id}`);
    await expect(reader.getByRole("heading", { name: freeTitle })).toBeVisible();
    await expect(reader.getByTestId("author-box")).toHaveCount(0);
    const freeLd = jsonLdOf(await freeResponse.text()).find((item) => item["@type"] === "NewsArticle");
    expect(freeLd?.author).toEqual({ "@type": "Person", name: "Agência Placar" });
    await openPage(reader, site, "/autor/agencia-placar");
    await expect(reader.getByRole("heading", { level: 1, name: "Agência Placar" })).toBeVisible();
    await expect(reader.getByTestId("person-header")).toHaveCount(0);
    await expect(reader.getByRole("link", { name: freeTitle })).toBeVisible();

    // The reporter: no "Editar" on another's story (the server refuses it); on their own, also published, there is
    // one (they correct their own stories).
    await openPage(reporter, site, `/article/${free!.id}`);
    await expect(reporter.getByRole("heading", { name: freeTitle })).toBeVisible();
    await expect(reporter.getByRole("link", { name: t.article.edit })).toHaveCount(0);
    await openPage(reporter, site, `/article/${story!.id}`);
    await expect(reporter.getByTestId("author-box")).toBeVisible();
    await expect(reporter.getByRole("link", { name: t.article.edit })).toHaveCount(1);
    // The editor does see it.
    await openPage(editor, site, `/article/${free!.id}`);
    await expect(editor.getByRole("link", { name: t.article.edit })).toBeVisible();
  } finally {
    await closeAll(readerContext);
    await closeAll(editorContext);
    await closeAll(reporterContext);
  }
});

test("o repórter muda o nome: a assinatura das notícias segue, o endereço antigo leva ao novo (301) e a página não mostra id interno", async ({
  site,
  browser,
  request,
}) => {
  const suffix = Date.now().toString(36);
  const oldName = `Rita Campos ${suffix}`;
  const newName = `Rita C. Souza ${suffix}`;
  const oldSlug = `rita-campos-${suffix}`;
  const newSlug = `rita-c-souza-${suffix}`;
  const title = `Ouro no vôlei de praia ${suffix}`;
  const reporterActor = { userId: site.reporter.id, role: "reporter" as const };
  // Before: a profile and a published story signed with the old name.
  const storyId = await withSiteServices(site, async (services) => {
    await services.profiles.save(reporterActor, site.reporter.id, { displayName: oldName }, null);
    const input = newsInputSchema.parse({
      title,
      subtitle: "A dupla venceu",
      fullContent: "Texto",
      category: "Vôlei",
      author: oldName,
      status: "published",
    });
    return (await services.newsEditor.createNews(input, null, memberActor({ userId: site.editor.id, role: "editor" }))).id;
  });
  const reporterContext = await browser.newContext();
  const readerContext = await browser.newContext();
  try {
    const reporter = await reporterContext.newPage();
    await signInThroughPage(reporter, site, site.reporter.email, site.reporter.password, "?redirectTo=%2Fperfil");
    await expect(reporter).toHaveURL(/\/perfil$/);
    await expect(field(reporter, t.profile.displayName)).toHaveValue(oldName);
    await field(reporter, t.profile.displayName).fill(newName);
    await reporter.getByRole("button", { name: t.profile.save }).click();
    await expect(reporter.getByTestId("banner-success")).toHaveText(t.profile.saved);

    // The story's byline, its author page and the box follow the new name.
    const reader = await readerContext.newPage();
    const article = await openPage(reader, site, `/article/${storyId}`);
    await expect(reader.getByTestId("author-box").getByRole("link", { name: newName })).toHaveAttribute("href", `/autor/${newSlug}`);
    const articleHtml = await article.text();
    expect(articleHtml).not.toContain(oldName);
    expect(articleHtml).not.toContain(site.reporter.id);

    // The old address: a permanent redirect to the new one, which lists the story.
    const moved = await request.get(`${site.url}/autor/${oldSlug}`, { maxRedirects: 0 });
    expect(moved.status()).toBe(301);
    expect(moved.headers().location).toBe(`/autor/${newSlug}`);
    const page = await openPage(reader, site, `/autor/${oldSlug}`);
    await expect(reader).toHaveURL(new RegExp(`/autor/${newSlug}$`));
    await expect(reader.getByTestId("person-header").getByRole("heading", { level: 1, name: newName })).toBeVisible();
    await expect(reader.getByRole("link", { name: title })).toBeVisible();
    await expect(reader.getByTestId("term-empty")).toHaveCount(0);
    expect(await page.text()).not.toContain(site.reporter.id);
  } finally {
    await closeAll(readerContext);
    await closeAll(reporterContext);
  }
});

test("o perfil de outra pessoa: o repórter recebe 403; o administrador edita pela equipe", async ({ site, browser }) => {
  const reporterContext = await browser.newContext();
  const adminContext = await browser.newContext();
  try {
    const reporter = await reporterContext.newPage();
    await signInThroughPage(reporter, site, site.reporter.email, site.reporter.password, "?redirectTo=%2Fnews-list");
    await expect(reporter).toHaveURL(/\/news-list$/);
    const refused = await openPage(reporter, site, `/perfil?membro=${encodeURIComponent(site.editor.id)}`);
    expect(refused.status()).toBe(403);
    await expect(reporter.getByText(t.profile.notYours)).toBeVisible();
    // Posting to it is refused on the server too, and nothing is written.
    const post = await reporterContext.request.post(`${site.url}/perfil?membro=${encodeURIComponent(site.editor.id)}`, {
      headers: { origin: site.url },
      multipart: { displayName: "Invasor" },
    });
    expect(post.status()).toBe(403);
    expect(await siteQuery(site, "SELECT user_id FROM member_profiles WHERE user_id = ?", site.editor.id)).toEqual([]);

    await signInAsAdmin(adminContext, site);
    const admin = await adminContext.newPage();
    await openPage(admin, site, "/equipe");
    await admin.getByRole("link", { name: t.profile.otherTitle("edu") }).click();
    await expect(admin.getByRole("heading", { name: t.profile.otherTitle("edu") })).toBeVisible();
    await field(admin, t.profile.displayName).fill("Eduardo Editor");
    await field(admin, t.profile.bio).fill("Editor de esportes.");
    await admin.getByRole("button", { name: t.profile.save }).click();
    await expect(admin.getByTestId("banner-success")).toHaveText(t.profile.saved);
    expect(await siteQuery(site, "SELECT display_name, bio FROM member_profiles WHERE user_id = ?", site.editor.id)).toEqual([
      { display_name: "Eduardo Editor", bio: "Editor de esportes." },
    ]);
    // Before any published story, the member's page already shows them, with an empty list; a name nobody has is 404.
    const readerContext = await browser.newContext();
    try {
      const reader = await readerContext.newPage();
      await openPage(reader, site, "/autor/eduardo-editor");
      await expect(reader.getByTestId("person-header").getByRole("heading", { level: 1, name: "Eduardo Editor" })).toBeVisible();
      await expect(reader.getByTestId("person-header").getByText("Editor de esportes.")).toBeVisible();
      await expect(reader.getByTestId("term-empty")).toBeVisible();
      expect((await openPage(reader, site, "/autor/ninguem-com-este-nome")).status()).toBe(404);
    } finally {
      await closeAll(readerContext);
    }
  } finally {
    await closeAll(adminContext);
    await closeAll(reporterContext);
  }
});

/**
 * The news body's rich-text editor (Tiptap) in the real newsroom form, and what readers get from its structured
 * content: the article with and without JavaScript, and the RSS feed. Real server, real database, real Chromium.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import {
  bodyEditor,
  createNewsThroughApi,
  expect,
  openPage,
  siteQuery,
  signInAsAdmin,
  t,
  NEWSROOM_SITE,
  perWorkerSite,
  test as base,
} from "./support/fixtures.ts";
import type { RunningSite } from "#tests/factories/site.ts";
import { blocksText } from "#app/i18n/pt-BR-blocks.ts";
import { makeTestImage } from "#tests/factories/news.ts";

const test = base.extend<{ richSite: RunningSite }>({
  richSite: perWorkerSite("rich-text", NEWSROOM_SITE),
});

test.afterEach(async ({ page }) => {
  await page.goto("about:blank");
});

let counter = 0;
const uniqueTitle = (what: string) => `${what} ${process.pid}-${Date.now().toString(36)}-${++counter}`;
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const toolbar = (page: Page) => page.getByRole("toolbar", { name: t.richText.toolbar });
const tool = (page: Page, label: string) => toolbar(page).getByRole("button", { name: label, exact: true });

async function fillHead(page: Page, title: string) {
  await field(page, t.newsForm.title).fill(title);
  await field(page, t.newsForm.subtitle).fill("Subtítulo do teste do editor.");
  await field(page, t.newsForm.category).fill("Futebol");
}

/** The stored body of the news item titled `title`. */
async function storedBody(site: RunningSite, title: string): Promise<{ id: string; body: { content: unknown[] }; fullContent: string }> {
  const [row] = await siteQuery<{ id: string; body: string; full_content: string }>(
    site,
    "select id, body, full_content from news where title = ?",
    title,
  );
  if (!row) throw new Error(`no news titled ${title}`);
  return { id: row.id, body: JSON.parse(row.body), fullContent: row.full_content };
}

async function publish(page: Page) {
  await page.getByRole("button", { name: t.newsForm.submitCreate, exact: true }).click();
  await expect(page.getByTestId("banner-success")).toBeVisible();
}

test.describe("editor de texto rico (corpo da notícia)", () => {
  test.beforeEach(async ({ page, richSite }) => {
    await signInAsAdmin(page, richSite);
  });

  test("atalhos (Ctrl+B, Ctrl+I) e a barra (intertítulo, lista, link) com aria-pressed; o artigo mostra a formatação", async ({ page, richSite }) => {
    const title = uniqueTitle("Texto rico");
    await openPage(page, richSite, "/add-news");
    await fillHead(page, title);
    const editor = bodyEditor(page);
    await expect(editor).toHaveAccessibleName(t.newsForm.fullContent);
    await editor.click();
    await page.keyboard.insertText("Abertura com ");
    await page.keyboard.press("ControlOrMeta+b");
    await expect(tool(page, t.richText.bold)).toHaveAttribute("aria-pressed", "true");
    await page.keyboard.insertText("negrito");
    await page.keyboard.press("ControlOrMeta+b");
    await expect(tool(page, t.richText.bold)).toHaveAttribute("aria-pressed", "false");
    await page.keyboard.insertText(" e ");
    await page.keyboard.press("ControlOrMeta+i");
    await page.keyboard.insertText("itálico");
    await page.keyboard.press("ControlOrMeta+i");
    await page.keyboard.insertText(".");
    await page.keyboard.press("Enter");
    await tool(page, t.richText.heading2).click();
    await expect(tool(page, t.richText.heading2)).toHaveAttribute("aria-pressed", "true");
    await expect(editor).toBeFocused();
    await page.keyboard.insertText("O intertítulo");
    await page.keyboard.press("Enter");
    await tool(page, t.richText.bulletList).click();
    // As an editor does: the list is there (the button says so) and the cursor back in the text before typing into it
    // (a toolbar command gives the focus back at the next animation frame, which headless Chromium may hold back),
    // and each item is there before the next.
    await expect(tool(page, t.richText.bulletList)).toHaveAttribute("aria-pressed", "true");
    await expect(editor).toBeFocused();
    await page.keyboard.insertText("primeiro item");
    await expect(editor.locator("li")).toHaveText(["primeiro item"]);
    await page.keyboard.press("Enter");
    await page.keyboard.insertText("segundo item");
    await expect(editor.locator("li")).toHaveText(["primeiro item", "segundo item"]);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await expect(tool(page, t.richText.bulletList)).toHaveAttribute("aria-pressed", "false");
    await page.keyboard.insertText("Leia ");
    // The link button opens the page's dialog: javascript: is refused there, with the reason; https is taken.
    await tool(page, t.richText.link).click();
    const linkDialog = page.getByRole("dialog", { name: blocksText.linkDialogTitle });
    await linkDialog.getByLabel(blocksText.linkUrl).fill("javascript:alert(1)");
    await linkDialog.getByRole("button", { name: blocksText.apply }).click();
    await expect(linkDialog.getByText(t.richText.linkInvalid)).toBeVisible();
    await linkDialog.getByLabel(blocksText.linkUrl).fill("https://example.org/regulamento");
    await linkDialog.getByRole("button", { name: blocksText.apply }).click();
    await expect(linkDialog).toBeHidden();
    await expect(editor.locator('a[href="https://example.org/regulamento"]')).toHaveText("https://example.org/regulamento");

    await publish(page);
    const saved = await storedBody(richSite, title);
    expect(saved.body.content).toEqual([
      {
        type: "paragraph",
        content: [
          { type: "text", text: "Abertura com " },
          { type: "text", text: "negrito", marks: [{ type: "bold" }] },
          { type: "text", text: " e " },
          { type: "text", text: "itálico", marks: [{ type: "italic" }] },
          { type: "text", text: "." },
        ],
      },
      { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "O intertítulo" }] },
      {
        type: "bulletList",
        content: [
          { type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "primeiro item" }] }] },
          { type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "segundo item" }] }] },
        ],
      },
      {
        type: "paragraph",
        content: [
          { type: "text", text: "Leia " },
          { type: "text", text: "https://example.org/regulamento", marks: [{ type: "link", attrs: { href: "https://example.org/regulamento" } }] },
        ],
      },
    ]);
    expect(saved.fullContent).toBe(
      "Abertura com negrito e itálico.\n\nO intertítulo\n\n• primeiro item\n• segundo item\n\nLeia https://example.org/regulamento",
    );

    await openPage(page, richSite, `/article/${saved.id}`);
    const content = page.getByTestId("article-content");
    await expect(content.locator("strong")).toHaveText("negrito");
    await expect(content.locator("em")).toHaveText("itálico");
    await expect(content.getByRole("heading", { level: 2, name: "O intertítulo" })).toBeVisible();
    await expect(content.locator("ul > li")).toHaveText(["primeiro item", "segundo item"]);
    await expect(content.getByRole("link", { name: "https://example.org/regulamento" })).toHaveAttribute("rel", "noopener noreferrer nofollow");
  });

  test("no celular (390 px), numa notícia longa: a barra de formatação e os botões de salvar ficam à vista; link pelo diálogo, e digitar depois dele não o estende; tocar numa imagem edita seus textos e a remove; depois de salvar, o Editar está no topo do artigo", async ({
    page,
    richSite,
  }) => {
    test.slow();
    await page.setViewportSize({ width: 390, height: 844 });
    const title = uniqueTitle("Notícia longa no celular");
    await openPage(page, richSite, "/add-news");
    await fillHead(page, title);
    const editor = bodyEditor(page);
    await editor.click();
    for (let line = 1; line <= 30; line++) {
      await page.keyboard.insertText(`Parágrafo ${line} do relato do jogo, lance a lance, com detalhes do que aconteceu em campo.`);
      await page.keyboard.press("Enter");
    }
    // Far down the story: its start has scrolled away, the toolbar sits under the site's header and the save
    // buttons at the bottom of the screen.
    await expect.poll(async () => (await editor.locator("p").first().boundingBox())!.y).toBeLessThan(0);
    const bar = (await toolbar(page).boundingBox())!;
    expect(bar.y).toBeGreaterThanOrEqual(68);
    expect(bar.y).toBeLessThanOrEqual(72);
    const save = (await page.getByRole("button", { name: t.newsForm.submitCreate, exact: true }).boundingBox())!;
    expect(save.y + save.height).toBeLessThanOrEqual(844);
    expect(save.y).toBeGreaterThan(bar.y + bar.height);

    // An image: inserted, then tapped to change its caption, then tapped again to remove it.
    await tool(page, blocksText.image).click();
    const imageDialog = page.getByRole("dialog", { name: blocksText.imageDialogTitle });
    await imageDialog
      .getByLabel(blocksText.imageFile)
      .setInputFiles({ name: "lance.jpg", mimeType: "image/jpeg", buffer: await makeTestImage(800, 450) });
    await imageDialog.getByLabel(blocksText.imageAlt).fill("O lance do gol");
    await imageDialog.getByRole("button", { name: blocksText.insert }).click();
    await expect(imageDialog).toBeHidden();
    const figure = editor.getByTestId("editor-image");
    await expect(figure.locator("figcaption")).toHaveText(blocksText.imageBlock("O lance do gol"));
    await figure.locator("img").click();
    const edit = page.getByRole("dialog", { name: blocksText.imageEditTitle });
    await expect(edit.getByLabel(blocksText.imageAlt)).toHaveValue("O lance do gol");
    await edit.getByLabel(blocksText.imageCaption).fill("O gol de cabeça");
    await edit.getByRole("button", { name: blocksText.apply }).click();
    await expect(edit).toBeHidden();
    await expect(figure.locator("figcaption")).toHaveText("O gol de cabeça");
    await figure.locator("img").click();
    await page.getByRole("dialog", { name: blocksText.imageEditTitle }).getByRole("button", { name: blocksText.imageRemove }).click();
    await expect(figure).toHaveCount(0);
    await expect(editor).toBeFocused();

    // A link with its own words, from the dialog; what is typed after it is plain text.
    await page.keyboard.insertText("Veja ");
    await tool(page, t.richText.link).click();
    const linkDialog = page.getByRole("dialog", { name: blocksText.linkDialogTitle });
    await linkDialog.getByLabel(blocksText.linkUrl).fill("https://example.org/regulamento");
    await linkDialog.getByLabel(blocksText.linkText).fill("o regulamento");
    await linkDialog.getByRole("button", { name: blocksText.apply }).click();
    await expect(linkDialog).toBeHidden();
    await expect(editor).toBeFocused();
    await page.keyboard.insertText(" do campeonato");
    await expect(editor.locator("a")).toHaveText("o regulamento");
    await expect(editor.locator("p", { hasText: "Veja" })).toHaveText("Veja o regulamento do campeonato");
    // Editing the link: the dialog shows its address and can remove it.
    await editor.locator("a").click();
    await tool(page, t.richText.link).click();
    const editDialog = page.getByRole("dialog", { name: blocksText.linkEditTitle });
    await expect(editDialog.getByLabel(blocksText.linkUrl)).toHaveValue("https://example.org/regulamento");
    await editDialog.getByRole("button", { name: blocksText.cancel }).click();
    await expect(editDialog).toBeHidden();

    await publish(page);
    const saved = await storedBody(richSite, title);
    expect(JSON.stringify(saved.body)).not.toContain('"image"');
    expect(saved.fullContent).toContain("Veja o regulamento do campeonato");

    // "Salvar alterações": the article opens, with the newsroom's "Editar" in the first screen.
    await openPage(page, richSite, `/edit-news/${saved.id}`);
    await page.getByRole("button", { name: t.newsForm.submitEdit, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/article/${saved.id}`), { timeout: 10_000 });
    const editLink = page.getByRole("link", { name: t.article.edit, exact: true });
    await expect(editLink).toBeVisible();
    const at = (await editLink.boundingBox())!;
    expect(at.y + at.height).toBeLessThanOrEqual(844);
  });

  test("'Ver como leitor' no formulário mostra o que está nele agora, sem salvar: na criação e numa edição não salva", async ({ page, richSite }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const title = uniqueTitle("Prévia");
    await openPage(page, richSite, "/add-news");
    await fillHead(page, title);
    await bodyEditor(page).click();
    await page.keyboard.insertText("Um lance ");
    await page.keyboard.press("ControlOrMeta+b");
    await page.keyboard.insertText("decisivo");
    await page.keyboard.press("ControlOrMeta+b");
    await page.getByTestId("news-preview-open").click();
    const preview = page.getByTestId("news-preview");
    await expect(preview.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(preview.getByText("Subtítulo do teste do editor.")).toBeVisible();
    await expect(preview.getByTestId("news-preview-content").locator("strong")).toHaveText("decisivo");
    // Full screen on a phone.
    const box = (await preview.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(388);
    await preview.getByRole("button", { name: t.newsForm.previewClose }).click();
    await expect(preview).toHaveCount(0);
    expect(await siteQuery(richSite, "select id from news where title = ?", title)).toEqual([]);

    await publish(page);
    const saved = await storedBody(richSite, title);
    await openPage(page, richSite, `/edit-news/${saved.id}`);
    await field(page, t.newsForm.title).fill(`${title} (corrigido)`);
    await page.getByTestId("news-preview-open").click();
    await expect(page.getByTestId("news-preview").getByRole("heading", { level: 1 })).toHaveText(`${title} (corrigido)`);
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("news-preview")).toHaveCount(0);
    expect(await siteQuery(richSite, "select title from news where id = ?", saved.id)).toEqual([{ title }]);
  });

  test("colar do Word, do Google Docs e de uma página: estrutura e links ficam; script, eventos, estilos e tags desconhecidas saem", async ({
    page,
    richSite,
  }) => {
    const title = uniqueTitle("Texto colado");
    await openPage(page, richSite, "/add-news");
    await fillHead(page, title);
    await bodyEditor(page).click();
    const html = [
      // A web page: a script, an event handler, a style, an unknown tag, a javascript: link and a real one.
      '<h2 style="color:red" onclick="window.__pwned=1">Título colado</h2>',
      '<p>Texto com <a href="https://example.org/fonte" onmouseover="window.__pwned=1" target="_blank">a fonte</a>',
      ' e <a href="javascript:window.__pwned=1">um link mau</a>.<script>window.__pwned = 1</script></p>',
      '<marquee>tag desconhecida</marquee><iframe src="https://example.org"></iframe><img src=x onerror="window.__pwned=1">',
      // Word: classes, mso styles, <o:p>.
      "<p class=MsoNormal style='mso-margin-top-alt:auto'><b><span style='font-family:Calibri'>Do Word</span></b><o:p></o:p></p>",
      "<ul><li class=MsoListParagraph>item do Word</li></ul>",
      // Google Docs: everything in a <b style="font-weight:normal">, bold and italic as styles.
      '<b style="font-weight:normal;" id="docs-internal-guid-1"><p dir="ltr"><span style="font-weight:700;">Docs negrito</span>',
      '<span style="font-style:italic;"> docs itálico</span></p></b>',
    ].join("");
    await page.evaluate((value) => {
      const target = document.querySelector('[data-testid="body-editor"]')!;
      const data = new DataTransfer();
      data.setData("text/html", value);
      data.setData("text/plain", "texto simples");
      target.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    }, html);
    const editor = bodyEditor(page);
    await expect(editor.getByRole("heading", { level: 2, name: "Título colado" })).toBeVisible();
    await expect(editor.locator('a[href="https://example.org/fonte"]')).toHaveText("a fonte");
    expect(await editor.locator("script, iframe, img, marquee, [onclick], [onmouseover], [onerror], [style]").count()).toBe(0);
    await expect(editor.locator('a[href^="javascript"]')).toHaveCount(0);
    await expect(editor.getByText("um link mau")).toBeVisible();
    await expect(editor.locator("strong", { hasText: "Do Word" })).toBeVisible();
    await expect(editor.locator("li", { hasText: "item do Word" })).toBeVisible();
    await expect(editor.locator("strong", { hasText: "Docs negrito" })).toBeVisible();
    await expect(editor.locator("em", { hasText: "docs itálico" })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    await publish(page);
    const saved = JSON.stringify((await storedBody(richSite, title)).body);
    expect(saved).toContain('{"type":"link","attrs":{"href":"https://example.org/fonte"}}');
    expect(saved).not.toMatch(/javascript|script|onclick|style|marquee|iframe/i);
  });

  test("a barra cabe em 375 px e o formulário com o editor passa no axe", async ({ page, richSite }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await openPage(page, richSite, "/add-news");
    await expect(bodyEditor(page)).toBeVisible();
    const buttons = toolbar(page).getByRole("button");
    expect(await buttons.count()).toBe(14);
    for (const button of await buttons.all()) {
      const box = await button.boundingBox();
      expect(box, (await button.getAttribute("aria-label")) ?? "").not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(375);
      expect(box!.height).toBeGreaterThanOrEqual(40);
    }
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
  });

  test("editar uma notícia formatada: o editor abre com a formatação, passa no axe, e salvar só o título a mantém", async ({ page, richSite }) => {
    const title = uniqueTitle("Para editar");
    const body = {
      type: "doc",
      content: [
        { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "Intertítulo" }] },
        {
          type: "paragraph",
          content: [
            { type: "text", text: "forte", marks: [{ type: "bold" }] },
            { type: "text", text: " e normal." },
          ],
        },
      ],
    };
    const id = await createNewsThroughApi(page.context(), richSite, { title, body });
    await openPage(page, richSite, `/edit-news/${id}`);
    const editor = bodyEditor(page);
    await expect(editor.getByRole("heading", { level: 2, name: "Intertítulo" })).toBeVisible();
    await expect(editor.locator("strong")).toHaveText("forte");
    await editor.locator("strong").click();
    await expect(tool(page, t.richText.bold)).toHaveAttribute("aria-pressed", "true");
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
    await field(page, t.newsForm.title).fill(`${title} (editada)`);
    await page.getByRole("button", { name: t.newsForm.submitEdit, exact: true }).click();
    await expect(page).toHaveURL(`${richSite.url}/article/${id}`);
    expect((await storedBody(richSite, `${title} (editada)`)).body).toEqual(body);
  });

  test("sem JavaScript o leitor vê a formatação; o RSS leva o HTML do corpo", async ({ page, browser, richSite }) => {
    const title = uniqueTitle("Sem JS");
    // The site's own address (SITE_URL: the test server runs on localhost).
    const ownSite = richSite.url.replace("127.0.0.1", "localhost");
    const body = {
      type: "doc",
      content: [
        { type: "heading", attrs: { level: 3 }, content: [{ type: "text", text: "Intertítulo menor" }] },
        {
          type: "paragraph",
          content: [
            { type: "text", text: "forte", marks: [{ type: "bold" }] },
            { type: "text", text: " e " },
            { type: "text", text: "o site", marks: [{ type: "link", attrs: { href: `${ownSite}/news-list` } }] },
            { type: "hardBreak" },
            { type: "text", text: "<script>x</script>" },
          ],
        },
        { type: "blockquote", content: [{ type: "paragraph", content: [{ type: "text", text: "Uma citação." }] }] },
        { type: "orderedList", content: [{ type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "um" }] }] }] },
        { type: "horizontalRule" },
      ],
    };
    const id = await createNewsThroughApi(page.context(), richSite, { title, body });
    const reader = await browser.newContext({ javaScriptEnabled: false });
    try {
      const noJs = await reader.newPage();
      await noJs.goto(`${richSite.url}/article/${id}`);
      await expect(noJs.locator("html[data-hydrated]")).toHaveCount(0);
      const content = noJs.getByTestId("article-content");
      await expect(content.getByRole("heading", { level: 3, name: "Intertítulo menor" })).toBeVisible();
      await expect(content.locator("strong")).toHaveText("forte");
      // A link to the site itself has no nofollow.
      await expect(content.getByRole("link", { name: "o site" })).not.toHaveAttribute("rel", /nofollow/);
      await expect(content.locator("blockquote")).toHaveText("Uma citação.");
      await expect(content.locator("ol > li")).toHaveText(["um"]);
      await expect(content.locator("hr")).toHaveCount(1);
      await expect(content.getByText("<script>x</script>")).toBeVisible();
      expect(await content.innerText()).toContain("forte e o site\n<script>x</script>");
    } finally {
      await reader.close();
    }

    const rss = await (await page.request.get(`${richSite.url}/rss.xml`)).text();
    const item = rss.split("<item>").find((part) => part.includes(title))!;
    expect(item).toContain("<h3>Intertítulo menor</h3>");
    expect(item).toContain(`<strong>forte</strong> e <a href="${ownSite}/news-list">o site</a><br/>&lt;script&gt;x&lt;/script&gt;`);
    expect(item).toContain("<blockquote><p>Uma citação.</p></blockquote><ol><li><p>um</p></li></ol><hr/>");
  });

  test("Imagem e Incorporar: a imagem sobe com descrição, legenda e crédito; o artigo mostra a figura (também sem JS), o RSS leva o <img> absoluto", async ({
    page,
    browser,
    request,
    richSite,
  }) => {
    // Upload, two dialogs, publish, three readings of the article and the feed, then an edit: ~20-30 s under load.
    test.slow();
    await page.setViewportSize({ width: 375, height: 800 });
    const title = uniqueTitle("Com imagem");
    await openPage(page, richSite, "/add-news");
    await fillHead(page, title);
    await bodyEditor(page).click();
    await page.keyboard.insertText("O gol da vitória:");

    await tool(page, blocksText.image).click();
    const imageDialog = page.getByRole("dialog", { name: blocksText.imageDialogTitle });
    await expect(imageDialog).toBeVisible();
    // Fits a 375 px screen.
    const box = await imageDialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
    // The description is required (checked before anything is uploaded).
    await imageDialog
      .getByLabel(blocksText.imageFile)
      .setInputFiles({ name: "gol.jpg", mimeType: "image/jpeg", buffer: await makeTestImage(1200, 675) });
    await imageDialog.getByRole("button", { name: blocksText.insert }).click();
    await expect(imageDialog.getByText(blocksText.altRequired)).toBeVisible();
    await imageDialog.getByLabel(blocksText.imageAlt).fill("Atacante comemora o gol diante da torcida");
    await imageDialog.getByLabel(blocksText.imageCaption).fill("A comemoração do gol da vitória");
    await imageDialog.getByLabel(blocksText.imageCredit).fill("Ana Lima");
    await imageDialog.getByRole("button", { name: blocksText.insert }).click();
    await expect(imageDialog).toBeHidden();
    const inEditor = bodyEditor(page).getByTestId("editor-image");
    await expect(inEditor.locator("img")).toHaveAttribute("alt", "Atacante comemora o gol diante da torcida");
    await expect(inEditor.locator("figcaption")).toHaveText("A comemoração do gol da vitória — Foto: Ana Lima");

    // An embed: a disallowed address is refused in the dialog; a YouTube one is inserted.
    await tool(page, blocksText.embed).click();
    const embedDialog = page.getByRole("dialog", { name: blocksText.embedDialogTitle });
    await embedDialog.getByLabel(blocksText.embedUrl).fill("https://evil.example/watch?v=dQw4w9WgXcQ");
    await embedDialog.getByRole("button", { name: blocksText.insert }).click();
    await expect(embedDialog.getByText(blocksText.embedInvalid)).toBeVisible();
    // The hint asks for TikTok's full link; a short one (it names no video, and the site never asks TikTok where it
    // leads) is refused with words that say what to paste instead.
    await expect(embedDialog.getByText(blocksText.embedUrlHint)).toBeVisible();
    await embedDialog.getByLabel(blocksText.embedUrl).fill("https://vm.tiktok.com/ZMhvqKp7a/");
    await embedDialog.getByRole("button", { name: blocksText.insert }).click();
    await expect(embedDialog.getByText(blocksText.tiktokShortLink)).toBeVisible();
    await expect(embedDialog.getByLabel(blocksText.embedUrl)).toHaveAttribute("aria-invalid", "true");
    await embedDialog.getByLabel(blocksText.embedUrl).fill("https://youtu.be/dQw4w9WgXcQ");
    await embedDialog.getByRole("button", { name: blocksText.insert }).click();
    await expect(embedDialog).toBeHidden();
    await expect(bodyEditor(page).getByTestId("editor-embed")).toContainText("https://www.youtube.com/watch?v=dQw4w9WgXcQ");

    await publish(page);
    const saved = await storedBody(richSite, title);
    const [imageBlock, embedBlock] = saved.body.content.slice(1) as { type: string; attrs: Record<string, string> }[];
    expect(imageBlock).toEqual({
      type: "image",
      attrs: {
        mediaId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        alt: "Atacante comemora o gol diante da torcida",
        caption: "A comemoração do gol da vitória",
        credit: "Ana Lima",
      },
    });
    expect(embedBlock).toEqual({ type: "embed", attrs: { provider: "youtube", id: "dQw4w9WgXcQ" } });

    // The reader, without JavaScript: the figure with its variants, size and caption, and the embed's link.
    const reader = await browser.newContext({ javaScriptEnabled: false });
    try {
      const noJs = await reader.newPage();
      await noJs.goto(`${richSite.url}/article/${saved.id}`);
      const content = noJs.getByTestId("article-content");
      const figure = content.locator("figure[data-body-image]");
      const img = figure.locator("img");
      await expect(img).toHaveAttribute("alt", "Atacante comemora o gol diante da torcida");
      await expect(img).toHaveAttribute("loading", "lazy");
      await expect(img).toHaveAttribute("width", "1200");
      await expect(img).toHaveAttribute("height", "675");
      await expect(img).toHaveAttribute("srcset", / 400w, .* 800w/);
      await expect(figure.locator("source[type='image/webp']")).toHaveAttribute("srcset", /\.webp 400w/);
      await expect(figure.locator("figcaption")).toHaveText("A comemoração do gol da vitória — Foto: Ana Lima");
      await expect(content.locator("figure[data-embed='youtube'] a")).toHaveAttribute("href", "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    } finally {
      await reader.close();
    }
    // With JavaScript: the image loads (its variant exists) and the embed is today's facade.
    await openPage(page, richSite, `/article/${saved.id}`);
    const figureImg = page.getByTestId("article-content").locator("figure[data-body-image] img");
    await figureImg.scrollIntoViewIfNeeded();
    await expect.poll(() => figureImg.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
    await expect(page.getByRole("link", { name: t.embed.load(t.embed.providers.youtube) })).toBeVisible();

    const rss = await (await page.request.get(`${richSite.url}/rss.xml`)).text();
    const item = rss.split("<item>").find((part) => part.includes(title))!;
    const src = /<figure data-body-image=""><img src="([^"]+)"/.exec(item)?.[1];
    expect(src).toMatch(/^https?:\/\/[^/]+\/media\/.+\.jpg$/);
    expect((await page.request.get(src!)).status()).toBe(200);
    expect(item).toContain("<figcaption>A comemoração do gol da vitória — Foto: Ana Lima</figcaption>");

    // Editing: the editor opens with both blocks; saving only the title keeps the body as it was.
    await openPage(page, richSite, `/edit-news/${saved.id}`);
    await expect(bodyEditor(page).getByTestId("editor-image").locator("figcaption")).toHaveText("A comemoração do gol da vitória — Foto: Ana Lima");
    await expect(bodyEditor(page).getByTestId("editor-embed")).toContainText("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    // Its preview comes through GET /api/media?id= (a redirect to the variant, for admins only).
    const preview = bodyEditor(page).getByTestId("editor-image").locator("img");
    await expect(preview).toHaveAttribute("src", `/api/media?id=${imageBlock!.attrs.mediaId}`);
    await expect.poll(() => preview.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
    // A reader's request (no session) is refused.
    const anonymous = await request.get(`${richSite.url}/api/media?id=${imageBlock!.attrs.mediaId}`, {
      maxRedirects: 0,
    });
    expect(anonymous.status()).toBe(401);
    await field(page, t.newsForm.title).fill(`${title} (editada)`);
    await page.getByRole("button", { name: t.newsForm.submitEdit, exact: true }).click();
    await expect(page).toHaveURL(`${richSite.url}/article/${saved.id}`);
    expect((await storedBody(richSite, `${title} (editada)`)).body).toEqual(saved.body);
  });

  test("POST /api/media (o envio do diálogo 'Imagem'): só imagens, o arquivo é obrigatório, a resposta nomeia a mídia guardada", async ({
    page,
    richSite,
  }) => {
    const url = `${richSite.url}/api/media`;
    const post = (multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>) =>
      page.request.post(url, { multipart, headers: { origin: richSite.url } });
    const text = await post({ file: { name: "nota.txt", mimeType: "text/plain", buffer: Buffer.from("não é uma imagem") } });
    expect(text.status()).toBe(415);
    expect(((await text.json()) as { error: { message: string } }).error.message).toBe(blocksText.imageNotImage);
    // A "video" is refused too: inline media are images only.
    const video = await post({ file: { name: "v.mp4", mimeType: "video/mp4", buffer: Buffer.from("00000018667479706d703432", "hex") } });
    expect(video.status()).toBe(415);
    const none = await post({ outro: "campo" });
    expect(none.status()).toBe(400);
    expect(((await none.json()) as { error: { message: string } }).error.message).toBe(blocksText.imageFileRequired);
    const saved = await post({ file: { name: "foto.png", mimeType: "image/png", buffer: await makeTestImage(640, 360, "png") } });
    expect(saved.status()).toBe(201);
    const answer = (await saved.json()) as { id: string; src: string; width: number; height: number };
    expect(answer).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), src: expect.stringMatching(/\.webp$/), width: 640, height: 360 });
    expect((await page.request.get(new URL(answer.src, richSite.url).href)).status()).toBe(200);
  });
});

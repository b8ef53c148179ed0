/**
 * A paste from Word or a web page into the newsroom form (issue 33): the body editor and the text inputs clean what
 * nobody can see (soft hyphens, zero-width spaces, BOMs, no-break space runs, direction marks) as it is pasted, the
 * save goes through with no refusal, and the article shows the clean text. Real server, real database, real Chromium.
 */
import type { Page } from "@playwright/test";
import { blocksText } from "#app/i18n/pt-BR-blocks.ts";
import {
  apiHeaders,
  bodyEditor,
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

const test = base.extend<{ pasteSite: RunningSite }>({
  pasteSite: perWorkerSite("paste-cleaning", NEWSROOM_SITE),
});

test.afterEach(async ({ page }) => {
  await page.goto("about:blank");
});

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
/** Every character the cleaning takes out (none of them may reach the page or the database). */
const INVISIBLE = /[\u00AD\u200B\uFEFF\u00A0\u202E\u200E\u200F]/u;

/** A paste event as the browser sends it, with both flavours, on the focused element. */
async function paste(page: Page, html: string, plain: string) {
  await page.evaluate(
    ([htmlValue, plainValue]) => {
      const target = document.activeElement!;
      const data = new DataTransfer();
      if (htmlValue) data.setData("text/html", htmlValue);
      data.setData("text/plain", plainValue);
      target.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    },
    [html, plain] as const,
  );
}

test.describe("colar do Word ou de uma página no formulário da notícia", () => {
  test.beforeEach(async ({ page, pasteSite }) => {
    await signInAsAdmin(page, pasteSite);
  });

  test("hífen condicional, espaço de largura zero, BOM, espaços não separáveis e marcas de direção somem ao colar; a notícia é salva e o artigo mostra o texto limpo", async ({
    page,
    pasteSite,
  }) => {
    const suffix = `${process.pid}-${Date.now().toString(36)}`;
    await openPage(page, pasteSite, "/add-news");

    // The title: a paste from a web page, then the reporter keeps typing.
    const title = field(page, t.newsForm.title);
    await title.click();
    await paste(page, "", "\uFEFFPal\u00ADmeiras\u200B\u00A0\u00A0\u00A0vence\u202E o clássico");
    await expect(title).toHaveValue("Palmeiras vence o clássico");
    await page.keyboard.insertText(` ${suffix}`);
    await expect(title).toHaveValue(`Palmeiras vence o clássico ${suffix}`);

    // The subtitle as a phone keyboard may leave it (typed, not pasted): cleaned by the save, not refused.
    await field(page, t.newsForm.subtitle).fill("Vitória\u00A0\u00A0no\u00AD fim\u200B do jogo");
    await field(page, t.newsForm.category).fill("Futebol");

    // The body: Word's HTML (with &shy;, a zero-width space, &nbsp; runs and an override) and its plain text.
    const editor = bodyEditor(page);
    await editor.click();
    await paste(
      page,
      [
        "<p class=MsoNormal>Gol de placa do Pal&shy;meiras&#8203;,&nbsp;&nbsp;&nbsp;de bicicleta\u202E!<o:p></o:p></p>",
        "<p class=MsoNormal>Segundo&nbsp;&nbsp;par&aacute;grafo\uFEFF com Cora\u200Bção.<o:p></o:p></p>",
      ].join(""),
      "Gol de placa do Pal\u00ADmeiras\u200B,\u00A0\u00A0\u00A0de bicicleta\u202E!\n\nSegundo\u00A0\u00A0parágrafo\uFEFF com Cora\u200Bção.",
    );
    await expect(editor.locator("p")).toHaveText(["Gol de placa do Palmeiras, de bicicleta!", "Segundo parágrafo com Coração."]);
    expect(await editor.textContent()).not.toMatch(INVISIBLE);

    await page.getByRole("button", { name: t.newsForm.submitCreate, exact: true }).click();
    await expect(page.getByTestId("banner-success")).toBeVisible();
    await expect(page.getByTestId("banner-error")).toHaveCount(0);
    await expect(page.getByRole("alert").filter({ hasText: /caractere/ })).toHaveCount(0);

    const [row] = await siteQuery<{ id: string; title: string; subtitle: string; full_content: string }>(
      pasteSite,
      "select id, title, subtitle, full_content from news where title = ?",
      `Palmeiras vence o clássico ${suffix}`,
    );
    expect(row).toBeDefined();
    expect(row!.subtitle).toBe("Vitória no fim do jogo");
    expect(row!.full_content).toBe("Gol de placa do Palmeiras, de bicicleta!\n\nSegundo parágrafo com Coração.");

    await openPage(page, pasteSite, `/article/${row!.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Palmeiras vence o clássico ${suffix}`);
    const content = page.getByTestId("article-content");
    await expect(content.locator("p")).toHaveText(["Gol de placa do Palmeiras, de bicicleta!", "Segundo parágrafo com Coração."]);
    expect(await page.locator("main").textContent()).not.toMatch(INVISIBLE);
  });

  test("do Google Docs: Título 1/2 viram subtítulos, negrito por estilo, listas e links absolutos ficam, link relativo vira texto, tabela vira linhas legíveis; imagens e vídeos não colados são avisados", async ({
    page,
    pasteSite,
  }) => {
    const suffix = `${process.pid}-${Date.now().toString(36)}`;
    await openPage(page, pasteSite, "/add-news");
    await field(page, t.newsForm.title).fill(`Tabela do Brasileirão ${suffix}`);
    await field(page, t.newsForm.subtitle).fill("Como ficou a classificação");
    await field(page, t.newsForm.category).fill("Futebol");
    const editor = bodyEditor(page);
    await editor.click();
    // What Google Docs puts on the clipboard (its wrapper <b> with font-weight:normal, styles on spans), abridged.
    await paste(
      page,
      [
        '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1a2b3c">',
        '<h1 dir="ltr"><span style="font-size:20pt;font-weight:400">Rodada decisiva</span></h1>',
        '<p dir="ltr"><span style="font-weight:400">O </span><span style="font-weight:700">Palmeiras</span>',
        '<span style="font-weight:400"> venceu e </span><span style="font-style:italic">segue líder</span>.</p>',
        '<h2 dir="ltr"><span style="font-size:16pt">Classificação</span></h2>',
        "<div><table><tbody>",
        '<tr><td><p dir="ltr"><span style="font-weight:700">Time</span></p></td><td><p dir="ltr"><span>Pts</span></p></td></tr>',
        "<tr><td><p>Palmeiras</p></td><td><p>70</p></td></tr>",
        "<tr><td><p>Flamengo</p></td><td><p>68</p></td></tr>",
        "</tbody></table></div>",
        '<ul><li dir="ltr"><p>Artilheiro: Flaco</p></li><li dir="ltr"><p>Próximo jogo: domingo</p></li></ul>',
        '<p dir="ltr"><a href="https://www.cbf.com.br/tabela">Tabela completa</a> e <a href="/noticia/relativa">a análise</a>.</p>',
        '<p dir="ltr"><span><img src="https://lh7-us.googleusercontent.com/foto1.png" width="300" height="200"></span></p>',
        '<p dir="ltr"><span><img src="https://lh7-us.googleusercontent.com/foto2.png" width="300" height="200"></span></p>',
        '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>',
        "</b>",
      ].join(""),
      "Rodada decisiva\nO Palmeiras venceu e segue líder.\nClassificação\nTime\tPts\nPalmeiras\t70\nFlamengo\t68",
    );
    await expect(editor.locator("h2")).toHaveText(["Rodada decisiva"]);
    await expect(editor.locator("h3")).toHaveText(["Classificação"]);
    await expect(editor.locator("strong").first()).toHaveText("Palmeiras");
    await expect(editor.locator("em")).toHaveText(["segue líder"]);
    await expect(editor.locator("p")).toContainText(["Time — Pts", "Palmeiras — 70", "Flamengo — 68"]);
    await expect(editor.locator("ul > li")).toHaveText(["Artilheiro: Flaco", "Próximo jogo: domingo"]);
    await expect(editor.locator("a")).toHaveCount(1);
    await expect(editor.locator("a")).toHaveAttribute("href", "https://www.cbf.com.br/tabela");
    await expect(editor.getByText("a análise")).toBeVisible();
    const notice = page.getByTestId("paste-left-out");
    await expect(notice).toHaveText(blocksText.pasteLeftOut({ images: 2, frames: 1 }));
    expect(await notice.textContent()).toContain("2 imagens não foram coladas: envie-as pelo botão “Imagem”.");
    await notice.getByRole("button", { name: blocksText.dismiss }).click();
    await expect(notice).toHaveCount(0);

    await page.getByRole("button", { name: t.newsForm.submitCreate, exact: true }).click();
    await expect(page.getByTestId("banner-success")).toBeVisible();
    const [row] = await siteQuery<{ id: string }>(pasteSite, "select id from news where title = ?", `Tabela do Brasileirão ${suffix}`);
    await openPage(page, pasteSite, `/article/${row!.id}`);
    const content = page.getByTestId("article-content");
    await expect(content.locator("h2")).toHaveText(["Rodada decisiva"]);
    await expect(content.locator("h3")).toHaveText(["Classificação"]);
    await expect(content.getByText("Palmeiras — 70")).toBeVisible();
    await expect(content.getByText("Time — Pts")).toBeVisible();
    await expect(content.getByRole("link", { name: "Tabela completa" })).toHaveAttribute("href", "https://www.cbf.com.br/tabela");
    await expect(content.getByRole("link", { name: "a análise" })).toHaveCount(0);
  });

  test("um link do YouTube sozinho numa linha vira o bloco incorporado, como no artigo; no meio de uma frase continua link", async ({
    page,
    pasteSite,
  }) => {
    await openPage(page, pasteSite, "/add-news");
    const editor = bodyEditor(page);
    await editor.click();
    await page.keyboard.type("Veja o gol:");
    await page.keyboard.press("Enter");
    await paste(page, "", "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    await expect(editor.getByTestId("editor-embed")).toHaveCount(1);
    await expect(editor.getByTestId("editor-embed")).toHaveAttribute("data-id", "dQw4w9WgXcQ");
    await expect(editor.locator("p", { hasText: "youtube.com" })).toHaveCount(0);
    // Lines of a pasted text: the one that is only a post's address becomes its block, the others stay text.
    await editor.locator("p").last().click();
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await paste(page, "", "Lance do jogo\nhttps://x.com/placar/status/1234567890\nDepois do lance");
    await expect(editor.getByTestId("editor-embed")).toHaveCount(2);
    await expect(editor.getByTestId("editor-embed").last()).toHaveAttribute("data-provider", "x");
    await expect(editor.getByText("Depois do lance")).toBeVisible();
    // Inside a sentence it is a link, not a block.
    await page.keyboard.type(" e o vídeo ");
    await paste(page, "", "https://www.youtube.com/watch?v=aqz-KE-bpKQ");
    await expect(editor.getByTestId("editor-embed")).toHaveCount(2);
    await expect(editor.locator("p", { hasText: "Depois do lance e o vídeo" })).toContainText("youtube.com/watch?v=aqz-KE-bpKQ");
  });

  test("uma atualização ao vivo e a nota de 'Devolver ao repórter' coladas também chegam limpas", async ({ page, pasteSite }) => {
    const suffix = `${process.pid}-${Date.now().toString(36)}`;
    const create = async (title: string, status: string) => {
      const response = await page.request.post(`${pasteSite.url}/api/news`, {
        multipart: { title, subtitle: "Sub", fullContent: "Texto", category: "Futebol", status },
        headers: apiHeaders(pasteSite),
      });
      expect(response.status()).toBe(201);
      return ((await response.json()) as { id: string }).id;
    };

    // The live composer on the edit page.
    const live = await create(`Grêmio x Inter ao vivo ${suffix}`, "published");
    const started = await page.request.patch(`${pasteSite.url}/api/news/${live}`, { data: { coverage: "live" }, headers: apiHeaders(pasteSite) });
    expect(started.status()).toBe(200);
    await openPage(page, pasteSite, `/edit-news/${live}`);
    const composer = page.getByTestId("live-composer");
    const text = composer.getByLabel(t.liveNewsroom.textLabel);
    await text.click();
    await paste(page, "", "GOL\u00AD do Grê\u200Bmio!\u00A0\u00A0\u00A0Cabeçada\u202E no ângulo.\uFEFF");
    // The composer is the rich-text editor: its own paste cleaning (clean-pasted-slice.ts), as the body's.
    await expect(text).toHaveText("GOL do Grêmio! Cabeçada no ângulo.");
    await composer.getByRole("button", { name: t.liveNewsroom.post }).click();
    await expect(composer.getByRole("status")).toHaveText(t.liveNewsroom.posted);
    await expect
      .poll(async () =>
        (await siteQuery<{ text: string }>(pasteSite, "select text from news_live_updates where news_id = ?", live)).map((row) => row.text),
      )
      .toEqual(["GOL do Grêmio! Cabeçada no ângulo."]);

    // The return note on a story in review.
    const review = await create(`Final do estadual em revisão ${suffix}`, "review");
    await openPage(page, pasteSite, `/edit-news/${review}`);
    const panel = page.getByTestId("review-return");
    const note = panel.getByLabel(t.review.noteLabel, { exact: true });
    await note.click();
    await paste(page, "", "Falta\u00AD ouvir\u200B o técnico.\u00A0\u00A0Confira\u202E o placar.\nObrigada.");
    await expect(note).toHaveValue("Falta ouvir o técnico. Confira o placar.\nObrigada.");
    await panel.getByRole("button", { name: t.review.returnSubmit, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/edit-news/${review}\\?devolvida=1`));
    const [returned] = await siteQuery<{ note: string }>(
      pasteSite,
      "select note from news_review_events where news_id = ? and kind = 'returned'",
      review,
    );
    expect(returned?.note).toBe("Falta ouvir o técnico. Confira o placar.\nObrigada.");
  });
});

import { renderToString } from "react-dom/server";
import { createRoutesStub, Outlet, useLoaderData } from "react-router";
import { describe, expect, it } from "vitest";
import { EMPTY_NEWS_FORM, NewsForm, type NewsFormPublication } from "#app/components/admin/news-form.tsx";
import { t } from "#app/i18n/newsroom.ts";
import { plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import type { Role } from "#app/lib/roles.ts";
import { rootData } from "./root-data.ts";

type FormProps = Parameters<typeof NewsForm>[0];

/** The newsroom page's route: the form with the props the test put in its loader data. */
function FormPage() {
  const props = useLoaderData() as Partial<FormProps>;
  return (
    <NewsForm
      mode="create"
      initial={EMPTY_NEWS_FORM}
      currentMedia={null}
      defaultAuthor="Redação"
      storeConnected
      storeLabel="disco local"
      timeZone="America/Sao_Paulo"
      {...props}
    />
  );
}

const Stub = createRoutesStub([{ id: "root", path: "/", Component: Outlet, children: [{ id: "form", path: "admin/news", Component: FormPage }] }]);

/**
 * Renders the form as the server does (the newsroom's pages render it first without JavaScript), inside a router
 * whose root data says the viewer's role (an admin unless told).
 */
function render(props: Partial<FormProps>, role: Role = "admin"): string {
  return renderToString(<Stub initialEntries={["/admin/news"]} hydrationData={{ loaderData: { root: rootData(role), form: props } }} />);
}

/** The page's text, tags dropped and entities React writes decoded. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

const story = { ...EMPTY_NEWS_FORM, title: "Final do estadual", body: plainTextToDoc("Primeiro parágrafo."), category: "Futebol" };
const published: NewsFormPublication = { status: "published", publishedAt: "2026-11-20T12:00:00.000Z", version: 3, mediaId: null };

describe("NewsForm's states, as the server renders them", () => {
  it("a new story: the create title, draft and publish buttons, no status line and nothing to unpublish", () => {
    const page = text(render({}));
    expect(page).toContain(t.newsForm.createTitle);
    expect(page).toContain(t.newsForm.saveDraft);
    expect(page).toContain(t.newsForm.submitCreate);
    expect(page).not.toContain(t.newsForm.unpublish);
    expect(render({})).not.toContain('data-testid="news-status"');
  });

  it("a reporter's new story: save as draft and send for review, never publish", () => {
    const page = text(render({}, "reporter"));
    expect(page).toContain(t.newsForm.saveDraft);
    expect(page).toContain(t.newsForm.submitReview);
    expect(page).not.toContain(t.newsForm.submitCreate);
  });

  it("a published story: the edit title, its status, save changes and unpublish (not a draft button)", () => {
    const html = render({ mode: "edit", newsId: "news-1", initial: story, publication: published });
    const page = text(html);
    expect(page).toContain(t.newsForm.editTitle);
    expect(html).toContain('data-testid="news-status"');
    expect(page).toContain(t.newsForm.statusLabel.published);
    expect(page).toContain(t.newsForm.submitEdit);
    expect(page).toContain(t.newsForm.unpublish);
    expect(page).not.toContain(t.newsForm.saveDraft);
    expect(html).toContain('value="Final do estadual"');
  });

  it("editing a story with a picture: the file input, hidden behind the preview, keeps a name (no label left)", () => {
    const picture = {
      kind: "image" as const,
      src: "/media/a/800.jpg",
      mimeType: "image/jpeg",
      width: 1600,
      height: 900,
      srcSet: null,
      webpSrcSet: null,
      largeSrc: "/media/a/1600.jpg",
    };
    const html = render({ mode: "edit", newsId: "news-1", initial: story, publication: published, currentMedia: picture });
    const input = /<input[^>]*type="file"[^>]*>/.exec(html)?.[0] ?? "";
    expect(input).toContain(`aria-label="${t.newsForm.media}: ${t.newsForm.mediaChange}"`);
    expect(html).not.toMatch(/<label[^>]*for="[^"]*-arquivo"/);
  });

  it("a draft being edited can still be saved as a draft and is not offered to unpublish", () => {
    const page = text(render({ mode: "edit", newsId: "news-1", initial: story, publication: { ...published, status: "draft" } }));
    expect(page).toContain(t.newsForm.saveDraft);
    expect(page).not.toContain(t.newsForm.unpublish);
  });

  it("a media store that does not answer: a warning naming it before the fields (text saves still go through)", () => {
    const down = text(render({ storeConnected: false, storeName: "S3" }));
    expect(down).toContain(t.storage.down.notice("S3"));
    expect(down).not.toContain(t.newsForm.driveRequired);
    expect(text(render({}))).not.toContain(t.storage.down.notice("S3"));
  });

  it("without JavaScript, a refused save comes back with its message, the field's error and what was typed", () => {
    const html = render({
      serverResult: {
        error: "Corrija os campos destacados.",
        fieldErrors: { title: ["O título é obrigatório."] },
        values: { title: "", subtitle: "Digitado antes", fullContent: "Texto enviado." },
      },
      initial: { ...EMPTY_NEWS_FORM, subtitle: "Digitado antes", body: plainTextToDoc("Texto enviado.") },
    });
    const page = text(html);
    expect(page).toContain("Corrija os campos destacados.");
    expect(page).toContain("O título é obrigatório.");
    expect(page).toContain("Digitado antes");
  });

  it("without JavaScript, unpublishing a live story first asks, with a button that confirms", () => {
    const html = render({ mode: "edit", newsId: "news-1", initial: story, publication: published, serverResult: { confirmUnpublish: true } });
    expect(html).toContain('data-testid="unpublish-confirm"');
    expect(text(html)).toContain(t.newsForm.unpublishConfirm);
    const draft = render({
      mode: "edit",
      newsId: "news-1",
      initial: story,
      publication: { ...published, status: "draft" },
      serverResult: { confirmUnpublish: true },
    });
    expect(draft).not.toContain('data-testid="unpublish-confirm"');
  });
});

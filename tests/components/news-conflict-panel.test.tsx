import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { changedFields, NewsConflictPanel } from "#app/components/admin/news-conflict-panel.tsx";
import type { NewsFormPublication, NewsFormValues } from "#app/components/admin/news-form.tsx";
import { t } from "#app/i18n/newsroom.ts";
import type { NewsConflictCurrent } from "#app/lib/news-view.ts";
import { plainTextToDoc } from "#app/lib/rich-text-plain.ts";

const names = t.newsForm.conflictFields;

const initial: NewsFormValues = {
  title: "Final do estadual",
  subtitle: "Decisão no domingo",
  body: plainTextToDoc("Primeiro parágrafo."),
  category: "Futebol",
  author: "",
  mediaDescription: "",
  mediaCaption: "",
  mediaCredit: "",
  isHighlighted: false,
};
const publication: NewsFormPublication = { status: "draft", publishedAt: "2026-11-20T12:00:00.000Z", version: 3, mediaId: null };

/** The item as the other save left it: the same as the form's, bar `overrides`. */
function current(overrides: Partial<NewsConflictCurrent> = {}): NewsConflictCurrent {
  return {
    id: "news-1",
    version: 4,
    title: initial.title,
    subtitle: initial.subtitle,
    fullContent: "Primeiro parágrafo.",
    body: initial.body,
    category: initial.category,
    author: "Redação",
    isHighlighted: initial.isHighlighted,
    status: publication.status,
    publishedAt: publication.publishedAt,
    mediaId: publication.mediaId,
    updatedAt: "2026-11-21T12:00:00.000Z",
    ...overrides,
  };
}

describe("changedFields", () => {
  it("names nothing when only the version moved (an empty author stands for the default one)", () => {
    expect(changedFields(current(), initial, publication, "Redação")).toEqual([]);
  });

  it("names each field the other save changed, in the form's order", () => {
    const other = current({
      title: "Outro título",
      body: plainTextToDoc("Outro parágrafo."),
      author: "Ana",
      isHighlighted: true,
      mediaId: "media-2",
    });
    expect(changedFields(other, initial, publication, "Redação")).toEqual([
      names.title,
      names.fullContent,
      names.author,
      names.isHighlighted,
      names.media,
    ]);
  });

  it("a changed status is named once, without the date it brought", () => {
    const published = current({ status: "published", publishedAt: "2026-11-21T09:00:00.000Z" });
    expect(changedFields(published, initial, publication, "Redação")).toEqual([names.status]);
    expect(changedFields(current({ publishedAt: "2026-11-22T09:00:00.000Z" }), initial, publication, "Redação")).toEqual([names.publishedAt]);
  });

  it("without the publication (a form that never had one), status, date and media are not compared", () => {
    expect(changedFields(current({ status: "published", mediaId: "media-2" }), initial, undefined, "Redação")).toEqual([]);
  });
});

describe("NewsConflictPanel", () => {
  it("says what changed and offers both ways out", () => {
    const html = renderToString(
      <NewsConflictPanel
        conflict={{ changed: [names.title!, names.category!], current: current() }}
        timeZone="America/Sao_Paulo"
        onReload={() => {}}
        onOverwrite={() => {}}
        onChoose={() => {}}
      />,
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain(t.newsForm.conflictChanged([names.title!, names.category!]));
    expect(html).toContain(t.newsForm.conflictReload);
    expect(html).toContain(t.newsForm.conflictOverwrite);
  });

  it("when nothing of the content changed, says only the version did", () => {
    const html = renderToString(
      <NewsConflictPanel
        conflict={{ changed: [], current: current() }}
        timeZone="America/Sao_Paulo"
        onReload={() => {}}
        onOverwrite={() => {}}
        onChoose={() => {}}
      />,
    );
    expect(html).toContain(t.newsForm.conflictChanged([]));
  });
});

import { renderToString } from "react-dom/server";
import { createRoutesStub, Outlet, useLoaderData } from "react-router";
import { describe, expect, it } from "vitest";
import { PagedGrid } from "#app/components/news/paged-grid.tsx";
import { t } from "#app/i18n/newsroom.ts";
import type { NewsSummary } from "#app/lib/news-view.ts";
import { rootData, SITE } from "./root-data.ts";

function summary(n: number, overrides: Partial<NewsSummary> = {}): NewsSummary {
  return {
    id: `news-${n}`,
    title: `Notícia ${n}`,
    subtitle: `Resumo ${n}`,
    category: "Futebol",
    author: "Redação",
    categorySlug: "futebol",
    authorSlug: "redacao",
    isHighlighted: false,
    createdAt: "2026-11-20T12:00:00.000Z",
    publishedAt: `2026-11-${String(20 - n).padStart(2, "0")}T12:00:00.000Z`,
    status: "published",
    media: null,
    ...overrides,
  };
}

type GridData = Partial<Omit<Parameters<typeof PagedGrid>[0], "pageHref">>;

/** The list page's route: the grid with the props the test put in its loader data. */
function GridPage() {
  const props = useLoaderData() as GridData;
  return (
    <PagedGrid
      first={[]}
      nextCursor={null}
      continued={false}
      pageHref={(cursor) => `/news-list?cursor=${cursor}`}
      apiQuery=""
      timeZone={SITE.timeZone}
      {...props}
    />
  );
}

const Stub = createRoutesStub([{ id: "root", path: "/", Component: Outlet, children: [{ id: "grid", index: true, Component: GridPage }] }]);

/** Renders the grid as the server does, under a root route whose data says whether the viewer is an admin. */
function render({ isAdmin = false, ...grid }: GridData & { isAdmin?: boolean }): string {
  const root = rootData(isAdmin ? "admin" : null);
  return renderToString(<Stub initialEntries={["/"]} hydrationData={{ loaderData: { root, grid } }} />);
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");

describe("PagedGrid, as the server renders it", () => {
  it("shows the first page's cards and a plain link to the next page (works without JavaScript)", () => {
    const html = render({ first: [summary(1), summary(2)], nextCursor: "abc" });
    expect(text(html)).toContain("Notícia 1");
    expect(text(html)).toContain("Notícia 2");
    expect(html).toContain('href="/news-list?cursor=abc"');
    expect(text(html)).toContain(t.newsList.more);
    expect(text(html)).not.toContain(t.newsList.end);
  });

  it("at the end of a list reached through pages, says so instead of offering more", () => {
    const html = render({ first: [summary(3)], nextCursor: null, continued: true });
    expect(text(html)).toContain(t.newsList.end);
    expect(text(html)).not.toContain(t.newsList.more);
  });

  it("a list that fits on one page shows neither the link nor the end", () => {
    const html = render({ first: [summary(1)], nextCursor: null });
    expect(text(html)).not.toContain(t.newsList.more);
    expect(text(html)).not.toContain(t.newsList.end);
  });

  it("readers see no status nor reads; admins see a draft's status and the week's reads", () => {
    const first = [summary(1, { status: "draft" }), summary(2)];
    const reader = render({ first });
    expect(reader).not.toContain('data-testid="card-status"');
    expect(reader).not.toContain('data-testid="reads-7d"');

    const admin = render({ first, isAdmin: true, reads: { "news-1": 4 } });
    expect(text(admin)).toContain(t.newsForm.statusLabel.draft);
    expect(text(admin)).toContain(t.mostRead.readsLastWeek(4));
    expect(text(admin)).toContain(t.mostRead.readsLastWeek(0));
  });
});

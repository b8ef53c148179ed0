import { describe, expect, it } from "vitest";
import type { NewsRow } from "#app/.server/db/schema.ts";
import {
  newsContentColumns,
  newsContentOf,
  publishedNewsRow,
  toNewsArticle,
  toNewsConflictCurrent,
  toNewsSummary,
} from "#app/.server/news/news-rows.server.ts";

const row: NewsRow = {
  id: "n1",
  title: "Título",
  subtitle: "Subtítulo",
  full_content: "Texto completo",
  body: null,
  category: "Vôlei",
  author: "Ana",
  category_slug: "volei",
  author_slug: "",
  is_highlighted: 1,
  media_id: null,
  created_at: "2026-11-20T10:00:00.000Z",
  updated_at: "2026-11-21T10:00:00.000Z",
  status: "published",
  published_at: "2026-11-20T12:00:00.000Z",
  first_published_at: "2026-11-20T12:00:00.000Z",
  text_updated_at: null,
  deleted_at: null,
  deleted_by: null,
  version: 3,
  updated_by: null,
  owner_id: null,
  review_requested_at: null,
  author_user_id: null,
  live_coverage: null,
  live_started_at: null,
  live_ended_at: null,
  live_scoreboard: null,
  live_updated_at: null,
  live_kickoff_at: null,
  live_competition: null,
};
const noMedia = {
  media_store: null,
  media_kind: null,
  media_key: null,
  media_mime_type: null,
  media_width: null,
  media_height: null,
  media_variants: null,
  media_description: null,
  media_caption: null,
  media_credit: null,
};
const store = { publicUrl: (key: string) => `/media/${key}` };

describe("news rows ↔ views: one mapping", () => {
  it("content goes to columns and back unchanged; the highlight is 0/1 in the row", () => {
    const content = newsContentOf(row);
    expect(content).toEqual({
      title: "Título",
      subtitle: "Subtítulo",
      fullContent: "Texto completo",
      body: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Texto completo" }] }] },
      category: "Vôlei",
      author: "Ana",
      isHighlighted: true,
    });
    expect(newsContentColumns(content)).toEqual({
      title: "Título",
      subtitle: "Subtítulo",
      full_content: "Texto completo",
      body: JSON.stringify(content.body),
      category: "Vôlei",
      author: "Ana",
      is_highlighted: 1,
    });
    expect(newsContentColumns({ ...content, isHighlighted: false }).is_highlighted).toBe(0);
    expect(newsContentOf({ ...row, is_highlighted: 0 }).isHighlighted).toBe(false);
  });

  it("summary, article and the conflict answer read the same row the same way (an unknown slug is null)", () => {
    const summary = toNewsSummary({ ...row, ...noMedia }, store);
    expect(summary).toMatchObject({
      id: "n1",
      categorySlug: "volei",
      authorSlug: null,
      isHighlighted: true,
      publishedAt: row.published_at,
      media: null,
    });
    expect(toNewsArticle({ ...row, ...noMedia }, store)).toEqual({
      ...summary,
      fullContent: "Texto completo",
      body: newsContentOf(row).body,
      updatedAt: row.updated_at,
      textUpdatedAt: null,
      version: 3,
      mediaId: null,
    });
    expect(toNewsConflictCurrent(row)).toEqual({
      id: "n1",
      version: 3,
      ...newsContentOf(row),
      status: "published",
      publishedAt: row.published_at,
      mediaId: null,
      updatedAt: row.updated_at,
    });
  });

  it("a row published at creation takes the canonical terms over the content's spelling", () => {
    const terms = { category: "Vôlei", category_slug: "volei", author: "Ana", author_slug: "ana" };
    const inserted = publishedNewsRow({
      id: "n2",
      content: newsContentColumns({ ...newsContentOf(row), category: "volei" }),
      terms,
      mediaId: "m1",
      createdAt: "2026-11-22T08:00:00.000Z",
    });
    expect(inserted).toMatchObject({
      category: "Vôlei",
      media_id: "m1",
      created_at: "2026-11-22T08:00:00.000Z",
      published_at: "2026-11-22T08:00:00.000Z",
      updated_at: "2026-11-22T08:00:00.000Z",
    });
    const edited = publishedNewsRow({
      id: "n3",
      content: newsContentColumns(newsContentOf(row)),
      terms,
      mediaId: null,
      createdAt: "a",
      updatedAt: "b",
    });
    expect(edited).toMatchObject({ created_at: "a", published_at: "a", updated_at: "b" });
  });
});

import { describe, expect, it } from "vitest";
import { t } from "#app/i18n/pt-BR.ts";
import { articleDateLines, listedPublicationDate } from "./article-dates.ts";

const AT = "2026-11-25T13:05:00.000Z";
const LATER = "2026-11-26T09:30:00.000Z";

describe("listedPublicationDate", () => {
  it("a story readers have (or will have at a set time) shows its publication date", () => {
    expect(listedPublicationDate({ status: "published", publishedAt: AT })).toBe(AT);
    expect(listedPublicationDate({ status: "scheduled", publishedAt: AT })).toBe(AT);
  });

  it("a draft or a story in review was not published: no date (its stored one is only its place in the list)", () => {
    expect(listedPublicationDate({ status: "draft", publishedAt: AT })).toBeNull();
    expect(listedPublicationDate({ status: "review", publishedAt: AT })).toBeNull();
  });
});

describe("articleDateLines", () => {
  const story = (status: "draft" | "review" | "scheduled" | "published") => ({ status, publishedAt: AT, updatedAt: LATER, textUpdatedAt: null });

  it("a story in review says so, never 'Rascunho' nor 'Publicado em'", () => {
    const [line, ...rest] = articleDateLines(story("review"), "America/Sao_Paulo");
    expect(rest).toEqual([]);
    expect(line).toMatchObject({ label: t.article.reviewSavedOn, iso: LATER });
  });

  it("a draft says when it was saved; a scheduled story when it goes out; a published one when it went out", () => {
    expect(articleDateLines(story("draft"), "America/Sao_Paulo").map((line) => line.label)).toEqual([t.article.draftSavedOn]);
    expect(articleDateLines(story("scheduled"), "America/Sao_Paulo").map((line) => [line.label, line.iso])).toEqual([[t.article.scheduledFor, AT]]);
    expect(articleDateLines(story("published"), "America/Sao_Paulo").map((line) => [line.label, line.iso])).toEqual([[t.article.publishedOn, AT]]);
  });
});

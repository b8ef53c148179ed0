import { describe, expect, it } from "vitest";
import { concernsPage } from "#app/lib/use-live-updates.ts";

describe("concernsPage: which open pages reload on a story's change", () => {
  const change = JSON.stringify({ paths: ["/article/n1", "/article/n1/flamengo-vence", "/categoria/futebol"] });

  it("an article's page reloads for its own story only", () => {
    expect(concernsPage(change, "/article/n1")).toBe(true);
    expect(concernsPage(change, "/article/n1/flamengo-vence")).toBe(true);
    expect(concernsPage(change, "/article/n1/titulo-antigo")).toBe(true);
    expect(concernsPage(change, "/article/n2/outra-noticia")).toBe(false);
    expect(concernsPage(change, "/article/n10")).toBe(false);
  });

  it("every other page may show the story: home, sections, lists, search, the newsroom", () => {
    for (const pathname of ["/", "/categoria/volei", "/news-list", "/busca", "/redacao", "/edit-news/n2"]) {
      expect(concernsPage(change, pathname), pathname).toBe(true);
    }
  });

  it("only a live story's score changed: its own open article takes it from liveUpdated, the cards elsewhere reload", () => {
    const score = JSON.stringify({ paths: ["/article/n1", "/article/n1/classico", "/"], liveStory: "n1" });
    expect(concernsPage(score, "/article/n1")).toBe(false);
    expect(concernsPage(score, "/article/n1/classico")).toBe(false);
    expect(concernsPage(score, "/")).toBe(true);
    expect(concernsPage(score, "/categoria/futebol")).toBe(true);
    expect(concernsPage(score, "/article/n2/outra")).toBe(false);
    // Ids are compared decoded, as the address carries them.
    expect(concernsPage(JSON.stringify({ paths: ["/article/a%20b"], liveStory: "a b" }), "/article/a%20b/titulo")).toBe(false);
  });

  it("an event without paths, or one it cannot read, concerns every page", () => {
    expect(concernsPage("{}", "/article/n2")).toBe(true);
    expect(concernsPage(JSON.stringify({ paths: [] }), "/article/n2")).toBe(true);
    expect(concernsPage("", "/article/n2")).toBe(true);
  });
});

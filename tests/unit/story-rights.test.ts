import { describe, expect, it } from "vitest";
import { newsArticleJsonLd } from "#app/lib/seo.ts";
import { mayChangeStory } from "#app/lib/roles.ts";
import type { NewsArticle } from "#app/lib/news-view.ts";
import type { PersonView } from "#app/lib/person.ts";

describe("mayChangeStory (what the pages offer: Editar, Excluir)", () => {
  const reporter = { role: "reporter" as const, userId: "ana" };
  it("editors and admins on any story; readers on none", () => {
    for (const role of ["editor", "admin"] as const) {
      expect(mayChangeStory({ role, userId: "x" }, { status: "published" })).toBe(true);
      expect(mayChangeStory({ role, userId: "x" }, { status: "draft", ownerId: "other" })).toBe(true);
    }
    expect(mayChangeStory({ role: null, userId: null }, { status: "draft", ownerId: "ana" })).toBe(false);
  });

  it("a reporter only on their own draft or story in review", () => {
    expect(mayChangeStory(reporter, { status: "draft", ownerId: "ana" })).toBe(true);
    expect(mayChangeStory(reporter, { status: "review", ownerId: "ana" })).toBe(true);
    expect(mayChangeStory(reporter, { status: "draft", ownerId: "bia" })).toBe(false);
    // No owner (imports, stories from before roles), or a published/scheduled one (never sent with an owner).
    expect(mayChangeStory(reporter, { status: "draft" })).toBe(false);
    expect(mayChangeStory(reporter, { status: "published", ownerId: "ana" })).toBe(false);
    expect(mayChangeStory(reporter, { status: "scheduled", ownerId: "ana" })).toBe(false);
  });
});

describe("newsArticleJsonLd: the author", () => {
  const site = { name: "Esporte em Foco", url: "https://esporte.example", defaultAuthor: "Redação Esporte em Foco" } as never;
  const article = { title: "T", subtitle: "S", publishedAt: "2026-11-26T10:00:00.000Z", updatedAt: "2026-11-26T10:00:00.000Z" } as NewsArticle;
  const image = { url: "https://esporte.example/og.jpg" } as never;
  const person: PersonView = {
    name: "Ana Repórter",
    slug: "ana-reporter",
    bio: "",
    photo: { kind: "image", src: "/media/ana.jpg", largeSrc: "/media/ana-large.jpg" } as never,
    links: { x: "https://x.com/ana", instagram: null, site: "https://ana.example" },
  };

  it("a member: Person with page, photo and links", () => {
    expect(newsArticleJsonLd(site, article, "/article/1", image, "Ana Repórter", person).author).toEqual({
      "@type": "Person",
      name: "Ana Repórter",
      url: "https://esporte.example/autor/ana-reporter",
      image: "https://esporte.example/media/ana-large.jpg",
      sameAs: ["https://x.com/ana", "https://ana.example"],
    });
  });

  it("a free-text author: a bare Person; the default author: the organization", () => {
    expect(newsArticleJsonLd(site, article, "/article/1", image, "Agência Placar", null).author).toEqual({
      "@type": "Person",
      name: "Agência Placar",
    });
    expect(newsArticleJsonLd(site, article, "/article/1", image, "Redação Esporte em Foco").author).toMatchObject({ "@type": "Organization" });
  });
});

import { describe, expect, it } from "vitest";
import { articlePath, slugify, termPath } from "./slug.ts";

describe("slugify", () => {
  it("folds accents and case, joins words with hyphens", () => {
    expect(slugify("Seleção Brasileira vence o Uruguai no Maracanã")).toBe("selecao-brasileira-vence-o-uruguai-no-maracana");
    expect(slugify("  São Paulo 2 × 1 Corinthians: ação!  ")).toBe("sao-paulo-2-1-corinthians-acao");
    expect(slugify("Vôlei")).toBe(slugify("volei"));
  });

  it("drops what is not a letter or digit, including markup and emoji", () => {
    expect(slugify('<script>alert("x")</script> ⚽ Gol!')).toBe("script-alert-x-script-gol");
    expect(slugify("⚽🏆")).toBe("");
  });

  it("cuts long titles at a word boundary", () => {
    const slug = slugify("palavra ".repeat(30), 40);
    expect(slug.length).toBeLessThanOrEqual(40);
    expect(slug).toMatch(/^palavra(-palavra)*$/);
  });
});

describe("articlePath", () => {
  it("puts the slug after the id, and leaves it out when there is none", () => {
    expect(articlePath({ id: "abc123", title: "Final da Copa do Brasil" })).toBe("/article/abc123/final-da-copa-do-brasil");
    expect(articlePath({ id: "abc123", title: "🏆" })).toBe("/article/abc123");
  });
});

describe("termPath", () => {
  it("is /categoria/{slug} for a category and /autor/{slug} for an author", () => {
    expect(termPath("category", "volei")).toBe("/categoria/volei");
    expect(termPath("author", "ana-reporter")).toBe("/autor/ana-reporter");
  });
});

/** What the readers' service worker keeps, and under which name (app/lib/offline-copies.ts). */
import { describe, expect, it } from "vitest";
import { articleCacheKey, articleIdOf, offlinePageFor, savedAtOf, savedPageTitle, storableAnswer } from "#app/lib/offline-copies.ts";

describe("offline copies", () => {
  it("one copy per story: the page with or without its slug, and its data, under /article/{id}", () => {
    const at = (path: string) => articleCacheKey(new URL(`https://site.example${path}`));
    expect(at("/article/abc-1")).toBe("https://site.example/article/abc-1");
    expect(at("/article/abc-1/flamengo-vence")).toBe("https://site.example/article/abc-1");
    expect(at("/article/abc-1.data")).toBe("https://site.example/article/abc-1.data");
    expect(at("/article/abc-1/flamengo-vence.data?_routes=root")).toBe("https://site.example/article/abc-1.data?_routes=root");
    expect(at("/article/abc-1/flamengo/x")).toBeNull();
    expect(at("/categoria/futebol")).toBeNull();
    expect(articleIdOf("/article/abc-1/slug.data")).toBe("abc-1");
    expect(articleIdOf("/articles/abc")).toBeNull();
  });

  it("keeps only what any reader may see: a 200 neither private nor no-store", () => {
    expect(storableAnswer(200, "public, max-age=0, s-maxage=30")).toBe(true);
    expect(storableAnswer(200, null)).toBe(true);
    expect(storableAnswer(200, "private, no-store")).toBe(false);
    expect(storableAnswer(200, "no-store")).toBe(false);
    expect(storableAnswer(404, "public, max-age=0")).toBe(false);
    expect(storableAnswer(503, null)).toBe(false);
  });

  it("a saved page's title without the site's name; the stamp, else the Date", () => {
    expect(savedPageTitle("<html><head><title>Grêmio &amp; Inter | Esporte em Foco</title>")).toBe("Grêmio & Inter");
    expect(savedPageTitle("<title>Só o título</title>")).toBe("Só o título");
    expect(savedPageTitle("<p>sem título</p>")).toBeNull();
    expect(savedAtOf(new Headers({ "X-Eef-Salvo-Em": "1700000000123", Date: "Tue, 14 Nov 2023 22:13:20 GMT" }))).toBe(1700000000123);
    expect(savedAtOf(new Headers({ Date: "Tue, 14 Nov 2023 22:13:20 GMT" }))).toBe(Date.parse("2023-11-14T22:13:20Z"));
    expect(savedAtOf(new Headers())).toBe(0);
    expect(offlinePageFor("/categoria/futebol?x=1")).toBe("/sem-conexao?de=%2Fcategoria%2Ffutebol%3Fx%3D1");
  });
});

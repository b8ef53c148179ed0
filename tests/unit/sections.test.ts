import { describe, expect, it } from "vitest";
import { arrangeSections } from "#app/.server/news/taxonomy/sections.server.ts";

const BY_VOLUME = [
  { slug: "futebol", name: "Futebol", count: 9 },
  { slug: "volei", name: "Vôlei", count: 5 },
  { slug: "basquete", name: "Basquete", count: 3 },
  { slug: "tenis", name: "Tênis", count: 1 },
];
const slugs = (list: Array<{ slug: string }>) => list.map((section) => section.slug);

describe("arrangeSections", () => {
  it("without settings keeps the volume order", () => {
    expect(slugs(arrangeSections(BY_VOLUME, []))).toEqual(["futebol", "volei", "basquete", "tenis"]);
  });

  it("puts the placed ones first, by position, then the others by volume; leaves hidden ones out", () => {
    const settings = [
      { slug: "tenis", position: 1, hidden: false },
      { slug: "basquete", position: 2, hidden: false },
      { slug: "volei", position: null, hidden: true },
      // A category no longer in use: ignored.
      { slug: "xadrez", position: 1, hidden: false },
    ];
    expect(slugs(arrangeSections(BY_VOLUME, settings))).toEqual(["tenis", "basquete", "futebol"]);
    const all = arrangeSections(BY_VOLUME, settings, true);
    expect(slugs(all)).toEqual(["tenis", "basquete", "futebol", "volei"]);
    expect(all.at(-1)).toMatchObject({ slug: "volei", hidden: true, position: null });
  });
});

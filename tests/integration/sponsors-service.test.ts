import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { AppError } from "#app/.server/errors.ts";
import { createSponsor } from "#tests/factories/news.ts";
import { useTestServices } from "#tests/factories/use-services.ts";

const open = useTestServices("eef-sponsors-");

describe("listSponsors", () => {
  it("lists sponsors in display order, which starts as their creation order, whatever the insertion order", async () => {
    const services = await open();
    const march = await createSponsor(services, new Date("2026-03-01T10:00:00Z"));
    const january = await createSponsor(services, new Date("2026-01-15T10:00:00Z"));
    const december = await createSponsor(services, new Date("2026-12-24T10:00:00Z"));
    const february = await createSponsor(services, new Date("2026-02-01T10:00:00Z"));
    const list = await services.sponsors.listSponsors();
    expect(list.map((sponsor) => sponsor.id)).toEqual([january, february, march, december]);
    expect(list.map((sponsor) => sponsor.createdAt)).toEqual([
      "2026-01-15T10:00:00.000Z",
      "2026-02-01T10:00:00.000Z",
      "2026-03-01T10:00:00.000Z",
      "2026-12-24T10:00:00.000Z",
    ]);
  });

  it("sponsors created at the same instant keep the order they were placed in, deterministically", async () => {
    const services = await open();
    const when = new Date("2026-05-05T05:05:05Z");
    const tied = [await createSponsor(services, when), await createSponsor(services, when), await createSponsor(services, when)];
    const first = (await services.sponsors.listSponsors()).map((sponsor) => sponsor.id);
    expect(first).toEqual(tied);
    expect((await services.sponsors.listSponsors()).map((sponsor) => sponsor.id)).toEqual(first);
  });

  it("gives each sponsor an image view of its logo, served from stored files", async () => {
    const services = await open();
    await createSponsor(services, new Date("2026-01-01T00:00:00Z"));
    await createSponsor(services, new Date("2026-01-02T00:00:00Z"));
    const list = await services.sponsors.listSponsors();
    expect(list).toHaveLength(2);
    for (const sponsor of list) {
      const image = sponsor.image!;
      expect(image).not.toBeNull();
      expect(image.kind).toBe("image");
      expect(image.mimeType).toBe("image/png");
      expect(image.width).toBe(400);
      expect(image.height).toBe(400);
      expect(image.src).toMatch(/^\/media\/[a-f0-9]{12}\/img\/[a-f0-9]+-[a-f0-9]{8}\/400\.png$/);
      expect(image.srcSet).toBe(`${image.src} 400w`);
      expect(image.webpSrcSet).toMatch(/^\/media\/[a-f0-9]{12}\/img\/[a-f0-9]+-[a-f0-9]{8}\/400\.webp 400w$/);
      const file = path.join(services.dataDir, "media", image.src.slice("/media/".length));
      expect(fs.existsSync(file)).toBe(true);
    }
    // Distinct logos have distinct files.
    expect(list[0]!.image!.src).not.toBe(list[1]!.image!.src);
  });

  it("returns an empty list when there are no sponsors", async () => {
    const services = await open();
    expect(await services.sponsors.listSponsors()).toEqual([]);
  });

  it("wraps a database failure as 'Falha ao buscar patrocinadores: …'", async () => {
    const services = await open();
    await createSponsor(services);
    await sql`drop table sponsors`.execute(services.database.db);
    const error = await services.sponsors.listSponsors().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message.startsWith("Falha ao buscar patrocinadores: ")).toBe(true);
    expect((error as AppError).message).toContain("sponsors");
    expect((error as AppError).status).toBe(500);
  });
});

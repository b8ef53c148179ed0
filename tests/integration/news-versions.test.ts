/**
 * GET /api/news-versions (the readers' service worker asks it for the articles saved on a phone): for each id, when
 * the public copy last changed, or null when readers cannot see it (a draft, a story taken down, an unknown id);
 * a live story's new update counts as a change. Real services on a fresh database (SQLite, then PostgreSQL), the
 * route module's own loader.
 */
import { describe, expect, it } from "vitest";
import { t } from "#app/i18n/pt-BR.ts";
import { NEWS_VERSIONS_MAX_IDS } from "#app/lib/offline-copies.ts";
import { loader } from "#app/routes/api/news-versions.ts";
import { createNews } from "#tests/factories/news.ts";
import { routeContextOf } from "#tests/factories/route-context.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";

const open = useTestServices("eef-versions-");

async function versions(services: TestServices, query: string) {
  const url = `http://127.0.0.1:4321/api/news-versions${query}`;
  const response = (await loader({ request: new Request(url), context: routeContextOf(services), params: {} } as never)) as Response;
  return { status: response.status, cacheControl: response.headers.get("Cache-Control"), json: (await response.json()) as Record<string, unknown> };
}

describe("GET /api/news-versions", () => {
  it("a published story's last change; null for a draft, a story taken down and an unknown id; a live update is a change", async () => {
    const services = await open();
    const { db } = services.database;
    const published = await createNews(services, { media: null });
    const draft = await createNews(services, { media: null });
    const live = await createNews(services, { media: null });
    await db.updateTable("news").set({ status: "draft" }).where("id", "=", draft).execute();
    const edited = "2026-11-20T10:00:00.000Z";
    await db.updateTable("news").set({ updated_at: edited }).where("id", "=", published).execute();
    const liveChange = "2026-11-21T18:30:00.000Z";
    await db.updateTable("news").set({ updated_at: edited, live_coverage: "live", live_updated_at: liveChange }).where("id", "=", live).execute();

    const answer = await versions(services, `?ids=${published},${draft},${live},nao-existe`);
    expect(answer.status).toBe(200);
    expect(answer.json.versions).toEqual({ [published]: edited, [draft]: null, [live]: liveChange, "nao-existe": null });
    // The same for everyone: a CDN may keep it a moment, like the live updates.
    expect(answer.cacheControl).toBe("public, max-age=0, s-maxage=2");

    // Taken down afterwards: null from then on.
    await db.updateTable("news").set({ status: "draft" }).where("id", "=", published).execute();
    expect((await versions(services, `?ids=${published}`)).json.versions).toEqual({ [published]: null });
  });

  it("no ids, too many, or one that is not an id: 400 in Portuguese, no query", async () => {
    const services = await open();
    const refused = { error: { code: "invalid_ids", message: t.offline.invalidIds(NEWS_VERSIONS_MAX_IDS) } };
    for (const query of [
      "",
      "?ids=",
      `?ids=${Array.from({ length: NEWS_VERSIONS_MAX_IDS + 1 }, (_, n) => `n${n}`).join(",")}`,
      "?ids=a,b%20c",
      "?ids=a,'or'1",
    ]) {
      const answer = await versions(services, query);
      expect(answer.status, query).toBe(400);
      expect(answer.json, query).toMatchObject(refused);
    }
    // The most it takes, at once.
    const answer = await versions(services, `?ids=${Array.from({ length: NEWS_VERSIONS_MAX_IDS }, (_, n) => `n${n}`).join(",")}`);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.json.versions as object)).toHaveLength(NEWS_VERSIONS_MAX_IDS);
  });
});

/**
 * Sponsors as records: the fields' checks (name required, https-only link, dates), the display order, the window in
 * which readers see a sponsor, the migration that named and numbered the existing ones, and the JSON API's fields.
 * Real services on a fresh database (SQLite, then PostgreSQL with TEST_DATABASE=postgres).
 */
import type { Kysely } from "kysely";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { AppServices } from "#app/.server/app.server.ts";
import { servicesContext } from "#app/.server/context.server.ts";
import { FieldsError } from "#app/.server/errors.ts";
import { createSponsorService } from "#app/.server/sponsors/sponsors.service.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { action as sponsorItemAction } from "#app/routes/api/sponsor-item.ts";
import { action as sponsorsAction, loader as sponsorsLoader } from "#app/routes/api/sponsors.ts";
import * as sponsorRecords from "#migrations/2026-11-26-801-sponsor-records.ts";
import { createAdmin } from "#tests/factories/auth.ts";
import { createSponsor, makeTestImage } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";

const open = useTestServices("eef-sponsor-records-", { SITE_URL: "http://127.0.0.1:4321" });

async function fieldErrorsOf(promise: Promise<unknown>): Promise<Record<string, string[]>> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(FieldsError);
  expect((error as FieldsError).status).toBe(400);
  return (error as FieldsError).fields;
}

const ids = (list: Array<{ id: string }>) => list.map((item) => item.id);

describe("a sponsor's fields", () => {
  it("a name is required (blank or spaces only), and kept trimmed", async () => {
    const services = await open();
    const id = await createSponsor(services);
    for (const name of ["", "   ", undefined]) {
      const fields = await fieldErrorsOf(services.sponsorEditor.updateSponsor(id, { name }));
      expect(fields.name).toEqual([t.sponsors.nameRequired]);
    }
    expect((await fieldErrorsOf(services.sponsorEditor.updateSponsor(id, { name: "x".repeat(81) }))).name).toEqual([t.sponsors.nameTooLong]);
    await services.sponsorEditor.updateSponsor(id, { name: "  Mercado Central  " });
    expect((await services.sponsors.listSponsors())[0]!.name).toBe("Mercado Central");
  });

  it("the link is https only (pt-BR message); an empty link clears it", async () => {
    const services = await open();
    const id = await createSponsor(services);
    for (const link of ["http://marca.com.br", "javascript:alert(1)", "marca.com.br", "ftp://marca.com.br", "data:text/html,oi", "https://"]) {
      const fields = await fieldErrorsOf(services.sponsorEditor.updateSponsor(id, { name: "Marca", link }));
      expect(fields.link, link).toEqual([t.sponsors.linkHttps]);
    }
    expect((await fieldErrorsOf(services.sponsorEditor.updateSponsor(id, { name: "Marca", link: "https://user:senha@marca.com.br" }))).link).toEqual([
      t.sponsors.linkCredentials,
    ]);
    expect(t.sponsors.linkHttps).toContain("https://");

    await services.sponsorEditor.updateSponsor(id, { name: "Marca", link: " https://www.marca.com.br/promo?x=1 " });
    expect((await services.sponsors.listSponsors())[0]!.link).toBe("https://www.marca.com.br/promo?x=1");
    await services.sponsorEditor.updateSponsor(id, { name: "Marca", link: "" });
    expect((await services.sponsors.listSponsors())[0]!.link).toBeNull();
  });

  it("dates are real calendar days, and the window does not end before it starts", async () => {
    const services = await open();
    const id = await createSponsor(services);
    for (const activeFrom of ["2026-02-30", "26-01-01", "amanhã", "2026-1-5"]) {
      expect((await fieldErrorsOf(services.sponsorEditor.updateSponsor(id, { name: "Marca", activeFrom }))).activeFrom).toEqual([
        t.sponsors.dateInvalid,
      ]);
    }
    const fields = await fieldErrorsOf(
      services.sponsorEditor.updateSponsor(id, { name: "Marca", activeFrom: "2026-05-10", activeUntil: "2026-05-09" }),
    );
    expect(fields.activeUntil).toEqual([t.sponsors.untilBeforeFrom]);
    // A one-day window is fine.
    await services.sponsorEditor.updateSponsor(id, { name: "Marca", activeFrom: "2026-05-10", activeUntil: "2026-05-10" });
    const [sponsor] = await services.sponsors.listSponsors({ includeInactive: true });
    expect([sponsor!.activeFrom, sponsor!.activeUntil]).toEqual(["2026-05-10", "2026-05-10"]);
  });

  it("a refused add stores nothing (no row, no file) and publishes nothing", async () => {
    const services = await open();
    let events = 0;
    services.events.subscribe((event) => {
      if (event === "sponsorsUpdated") events++;
    });
    const fields = await fieldErrorsOf(services.sponsorEditor.addSponsor(null, { name: "", link: "http://x.com" }));
    expect(fields.name).toEqual([t.sponsors.nameRequired]);
    expect(fields.link).toEqual([t.sponsors.linkHttps]);
    expect(await services.database.db.selectFrom("sponsors").select("id").execute()).toEqual([]);
    expect(await services.database.db.selectFrom("media").select("id").execute()).toEqual([]);
    expect(events).toBe(0);
  });
});

describe("display order", () => {
  it("moves a sponsor up or down, to the ends, keeps positions 1..n, and publishes sponsorsUpdated", async () => {
    const services = await open();
    const a = await createSponsor(services, new Date("2026-01-01T00:00:00Z"));
    const b = await createSponsor(services, new Date("2026-01-02T00:00:00Z"));
    const c = await createSponsor(services, new Date("2026-01-03T00:00:00Z"));
    let events = 0;
    services.events.subscribe((event) => {
      if (event === "sponsorsUpdated") events++;
    });
    expect(ids(await services.sponsors.listSponsors())).toEqual([a, b, c]);

    expect(await services.sponsorEditor.moveSponsor(c, 1)).toEqual({ position: 1 });
    expect(ids(await services.sponsors.listSponsors())).toEqual([c, a, b]);
    expect(await services.sponsorEditor.moveSponsor(a, 3)).toEqual({ position: 3 });
    expect(ids(await services.sponsors.listSponsors())).toEqual([c, b, a]);
    // Beyond the ends means the end.
    expect(await services.sponsorEditor.moveSponsor(c, 99)).toEqual({ position: 3 });
    expect(await services.sponsorEditor.moveSponsor(a, 0)).toEqual({ position: 1 });
    const list = await services.sponsors.listSponsors();
    expect(ids(list)).toEqual([a, b, c]);
    expect(list.map((sponsor) => sponsor.position)).toEqual([1, 2, 3]);
    expect(events).toBe(4);

    // Deleting closes the gap; a new one goes to the end.
    await services.sponsorEditor.deleteSponsor(b);
    const after = await services.sponsors.listSponsors();
    expect(ids(after)).toEqual([a, c]);
    expect(after.map((sponsor) => sponsor.position)).toEqual([1, 2]);
    await expect(services.sponsorEditor.moveSponsor("nao-existe", 1)).rejects.toMatchObject({ status: 404 });
    await expect(services.sponsorEditor.moveSponsor(a, Number.NaN)).rejects.toBeInstanceOf(FieldsError);
  });
});

describe("active window", () => {
  /** The sponsor list as it reads at `now`, in the site's time zone. */
  const listAt = (services: TestServices, now: string, includeInactive = false) =>
    createSponsorService({ db: services.database.db, store: services.store, timeZone: "America/Sao_Paulo", clock: () => new Date(now) }).listSponsors(
      {
        includeInactive,
      },
    );

  it("readers see only the sponsors inside their window (both days included, in the site's time zone); the newsroom sees all, marked", async () => {
    const services = await open();
    const open1 = await createSponsor(services, new Date("2026-01-01T00:00:00Z"), { name: "Sem período" });
    const past = await createSponsor(services, new Date("2026-01-02T00:00:00Z"), { name: "Já acabou", activeUntil: "2026-03-09" });
    const future = await createSponsor(services, new Date("2026-01-03T00:00:00Z"), { name: "Ainda não", activeFrom: "2026-03-11" });
    const today = await createSponsor(services, new Date("2026-01-04T00:00:00Z"), {
      name: "Hoje",
      activeFrom: "2026-03-10",
      activeUntil: "2026-03-10",
    });

    // 2026-03-10 12:00 in São Paulo.
    expect(ids(await listAt(services, "2026-03-10T15:00:00Z"))).toEqual([open1, today]);
    // 01:30 UTC on the 11th is still the 10th in São Paulo (UTC−3).
    expect(ids(await listAt(services, "2026-03-11T01:30:00Z"))).toEqual([open1, today]);
    // 03:30 UTC on the 11th is the 11th there.
    expect(ids(await listAt(services, "2026-03-11T03:30:00Z"))).toEqual([open1, future]);
    expect(ids(await listAt(services, "2026-03-09T20:00:00Z"))).toEqual([open1, past]);

    const all = await listAt(services, "2026-03-10T15:00:00Z", true);
    expect(ids(all)).toEqual([open1, past, future, today]);
    expect(all.map((sponsor) => sponsor.active)).toEqual([true, false, false, true]);
  });
});

describe("migration 2026-11-26-801", () => {
  it("names existing sponsors 'Patrocinador N' and numbers them in their creation order", async () => {
    const services = await open();
    const { db } = services.database;
    await sponsorRecords.down(db);
    const logo = await services.media.saveImage(await makeTestImage(50, 50, "png"), "logo.png");
    const rows = [
      { id: "c", created_at: "2026-03-01T00:00:00.000Z" },
      { id: "a", created_at: "2026-01-01T00:00:00.000Z" },
      { id: "b", created_at: "2026-02-01T00:00:00.000Z" },
    ];
    for (const row of rows)
      await (db as unknown as Kysely<{ sponsors: { id: string; media_id: string; created_at: string } }>)
        .insertInto("sponsors")
        .values({ ...row, media_id: logo.id })
        .execute();
    await sponsorRecords.up(db);
    const after = await db.selectFrom("sponsors").select(["id", "name", "position", "link", "active_from", "active_until"]).orderBy("id").execute();
    expect(after.map((row) => ({ ...row, position: Number(row.position) }))).toEqual([
      { id: "a", name: "Patrocinador 1", position: 1, link: null, active_from: null, active_until: null },
      { id: "b", name: "Patrocinador 2", position: 2, link: null, active_from: null, active_until: null },
      { id: "c", name: "Patrocinador 3", position: 3, link: null, active_from: null, active_until: null },
    ]);
    expect(ids(await services.sponsors.listSponsors())).toEqual(["a", "b", "c"]);
  });
});

describe("the JSON API (/api/sponsors)", () => {
  function contextOf(services: AppServices): RouterContextProvider {
    const context = new RouterContextProvider();
    context.set(servicesContext, services);
    return context;
  }

  async function adminCookie(services: TestServices): Promise<string> {
    const admin = await createAdmin(services);
    const result = await services.auth.signInWithPassword({ email: admin.email, password: admin.password, ip: "10.1.0.1", headers: new Headers() });
    if (!result.ok) throw new Error("admin sign-in failed");
    const token = /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie") ?? "")?.[0];
    if (!token) throw new Error("no session cookie");
    return token;
  }

  const URL_BASE = "http://127.0.0.1:4321/api/sponsors";

  async function post(services: TestServices, cookie: string, fields: Record<string, string>) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    form.set("image", new Blob([new Uint8Array(await makeTestImage(120, 60, "png"))], { type: "image/png" }), "logo.png");
    const request = new Request(URL_BASE, { method: "POST", body: form, headers: { cookie } });
    return sponsorsAction({ request, context: contextOf(services), params: {}, url: new URL(URL_BASE), pattern: "/api/sponsors" } as never);
  }

  async function patch(services: TestServices, cookie: string, id: string, body: unknown) {
    const url = `${URL_BASE}/${id}`;
    const request = new Request(url, { method: "PATCH", body: JSON.stringify(body), headers: { cookie, "Content-Type": "application/json" } });
    return sponsorItemAction({ request, context: contextOf(services), params: { id }, url: new URL(url), pattern: "/api/sponsors/:id" } as never);
  }

  async function list(services: TestServices, cookie?: string) {
    const request = new Request(URL_BASE, { headers: cookie ? { cookie } : {} });
    const response = (await sponsorsLoader({
      request,
      context: contextOf(services),
      params: {},
      url: new URL(URL_BASE),
      pattern: "/api/sponsors",
    } as never)) as Response;
    return ((await response.json()) as { sponsors: Array<Record<string, unknown>> }).sponsors;
  }

  it("POST takes name, link and window, refuses a missing name or an http link (400, per field, pt-BR); GET returns the fields", async () => {
    const services = await open();
    const cookie = await adminCookie(services);

    const noName = (await post(services, cookie, { link: "https://marca.com.br" })) as Response;
    expect(noName.status).toBe(400);
    expect(((await noName.json()) as { error: { fields: Record<string, string[]> } }).error.fields.name).toEqual([t.sponsors.nameRequired]);
    const http = (await post(services, cookie, { name: "Marca", link: "http://marca.com.br" })) as Response;
    expect(http.status).toBe(400);
    const httpBody = (await http.json()) as { error: { message: string; fields: Record<string, string[]> } };
    expect(httpBody.error.fields.link).toEqual([t.sponsors.linkHttps]);
    expect(httpBody.error.message).toBe(t.sponsors.linkHttps);
    expect(await services.database.db.selectFrom("media").select("id").execute()).toEqual([]);

    const created = (await post(services, cookie, { name: "Marca", link: "https://marca.com.br/", activeUntil: "2999-12-31" })) as Response;
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const [sponsor] = await list(services);
    expect(sponsor).toMatchObject({
      id,
      name: "Marca",
      link: "https://marca.com.br/",
      position: 1,
      activeFrom: null,
      activeUntil: "2999-12-31",
      active: true,
    });
    expect((sponsor!.image as { src: string }).src).toMatch(/^\/media\//);
  });

  it("PATCH edits fields without the logo (those left out are kept), moves with `position`, and GET hides inactive sponsors from readers only", async () => {
    const services = await open();
    const cookie = await adminCookie(services);
    const first = await createSponsor(services, new Date("2026-01-01T00:00:00Z"), { name: "Primeiro", link: "https://primeiro.com.br" });
    const second = await createSponsor(services, new Date("2026-01-02T00:00:00Z"), { name: "Segundo" });
    const mediaBefore = (await services.database.db.selectFrom("sponsors").select(["id", "media_id"]).orderBy("id").execute()).map(
      (row) => row.media_id,
    );

    const renamed = (await patch(services, cookie, first, { name: "Primeiro Lugar" })) as Response;
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as { sponsor: Record<string, unknown> }).sponsor).toMatchObject({
      id: first,
      name: "Primeiro Lugar",
      link: "https://primeiro.com.br",
    });
    const moved = (await patch(services, cookie, second, { position: 1 })) as Response;
    expect(((await moved.json()) as { sponsor: { position: number } }).sponsor.position).toBe(1);
    expect((await list(services)).map((sponsor) => sponsor.name)).toEqual(["Segundo", "Primeiro Lugar"]);
    // The logos did not change.
    expect((await services.database.db.selectFrom("sponsors").select(["id", "media_id"]).orderBy("id").execute()).map((row) => row.media_id)).toEqual(
      mediaBefore,
    );

    const refused = (await patch(services, cookie, first, { link: "http://primeiro.com.br" })) as Response;
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { fields: Record<string, string[]> } }).error.fields.link).toEqual([t.sponsors.linkHttps]);
    expect(((await patch(services, cookie, "nao-existe", { name: "X" })) as Response).status).toBe(404);

    // Out of its window: readers (no session) do not get it; the newsroom does, marked inactive.
    await patch(services, cookie, second, { activeUntil: "2000-01-01" });
    expect((await list(services)).map((sponsor) => sponsor.id)).toEqual([first]);
    const all = await list(services, cookie);
    expect(all.map((sponsor) => [sponsor.id, sponsor.active])).toEqual([
      [second, false],
      [first, true],
    ]);

    // Without a session, no change.
    const anonymous = await sponsorItemAction({
      request: new Request(`${URL_BASE}/${first}`, { method: "PATCH", body: "{}", headers: { "Content-Type": "application/json" } }),
      context: contextOf(services),
      params: { id: first },
    } as never).catch((thrown: unknown) => thrown);
    expect((anonymous as Response).status).toBe(401);
  });
});

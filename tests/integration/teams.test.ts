import { parseFeed } from "@rowanmanning/feed-parser";
import { describe, expect, it } from "vitest";
import type { SiteEvent, SiteEventDetail } from "#app/.server/events/event-bus.ts";
import { createSyndication } from "#app/.server/syndication/syndication.server.ts";
import {
  addTeam,
  listTeams,
  listTeamsInUse,
  removeTeam,
  renameTeam,
  setStoryTeams,
  storyTeams,
  tagMatchTeams,
} from "#app/.server/news/taxonomy/teams.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { TEAMS_PER_STORY } from "#app/lib/teams.ts";
import { createNews } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { memberActor } from "#app/.server/auth/permissions.server.ts";
import { testsActor } from "#tests/factories/actors.ts";

const open = useTestServices("eef-teams-");
const deps = (services: TestServices) => ({ db: services.database.db, events: services.events, log: services.log });
const SITE = { name: "Esporte em Foco", url: "https://esporte.example.com.br", description: "Notícias.", defaultAuthor: "Redação" };

/** The error code and status a refused call throws. */
async function refusal(call: () => Promise<unknown>) {
  try {
    await call();
  } catch (error) {
    const { code, status, message } = error as { code: string; status: number; message: string };
    return { code, status, message };
  }
  throw new Error("the call was not refused");
}

function heardEvents(services: TestServices) {
  const heard: Array<[SiteEvent, SiteEventDetail | undefined]> = [];
  services.events.subscribe((event, detail) => heard.push([event, detail]));
  return heard;
}

describe("a lista de times da redação", () => {
  it("um clube só entra uma vez, qualquer que seja a grafia; renomear mantém o endereço e não cria duplicata", async () => {
    const services = await open();
    const sp = await addTeam(deps(services), "  São Paulo ", testsActor);
    expect(sp).toEqual({ slug: "sao-paulo", name: "São Paulo" });
    for (const spelling of ["sao paulo", "SÃO PAULO", "São-Paulo", "são paulo."]) {
      expect(await refusal(() => addTeam(deps(services), spelling, testsActor))).toEqual({
        code: "team_exists",
        status: 409,
        message: t.teams.exists("São Paulo"),
      });
    }
    // Invisible characters a paste brings are cleaned, not refused; a name without letters is refused.
    const fla = await addTeam(deps(services), "Fla\u200bmengo", testsActor);
    expect(fla.name).toBe("Flamengo");
    expect(await refusal(() => addTeam(deps(services), "   ", testsActor))).toMatchObject({
      code: "team_name_invalid",
      status: 400,
      message: t.teams.nameRequired,
    });
    expect(await refusal(() => addTeam(deps(services), "⚽⚽", testsActor))).toMatchObject({ status: 400, message: t.teams.nameUnreadable });
    expect(await refusal(() => addTeam(deps(services), "x".repeat(61), testsActor))).toMatchObject({ status: 400, message: t.teams.nameTooLong(60) });

    // A rename keeps the page's address; it cannot take another club's name, in any spelling.
    expect(await refusal(() => renameTeam(deps(services), "flamengo", "sao paulo", testsActor))).toMatchObject({ code: "team_exists", status: 409 });
    expect(await renameTeam(deps(services), "flamengo", "Clube de Regatas do Flamengo", testsActor)).toEqual({
      slug: "flamengo",
      name: "Clube de Regatas do Flamengo",
    });
    // The old name is free again; its address is taken by the renamed club, so the new one gets the next.
    expect(await addTeam(deps(services), "Flamengo", testsActor)).toEqual({ slug: "flamengo-2", name: "Flamengo" });
    expect(await refusal(() => renameTeam(deps(services), "nao-existe", "Outro", testsActor))).toMatchObject({ code: "team_not_found", status: 404 });

    expect((await listTeams(services.database.db)).map((team) => team.name)).toEqual(["Clube de Regatas do Flamengo", "Flamengo", "São Paulo"]);
  });
});

describe("os times de uma notícia", () => {
  it("marcar, trocar e desmarcar; só times da lista, no máximo seis; o repórter só nas suas; cada mudança avisa as páginas", async () => {
    const services = await open();
    const { db } = services.database;
    const fla = await addTeam(deps(services), "Flamengo", testsActor);
    const pal = await addTeam(deps(services), "Palmeiras", testsActor);
    const id = await createNews(services, { title: "Flamengo e Palmeiras fazem o clássico", media: null });
    const heard = heardEvents(services);

    const saved = await setStoryTeams(deps(services), id, [pal.slug, fla.slug, fla.slug], testsActor);
    expect(saved).toEqual({ teams: [fla, pal], changed: true });
    expect(heard).toHaveLength(1);
    expect(heard[0]?.[0]).toBe("newsUpdated");
    expect(heard[0]?.[1]?.paths).toEqual(expect.arrayContaining([`/article/${id}`, "/time/flamengo", "/time/palmeiras", "/categoria/futebol"]));
    expect(heard[0]?.[1]?.newsroomOnly).toBeUndefined();

    // The same clubs again: nothing changes, nothing is announced.
    expect((await setStoryTeams(deps(services), id, [fla.slug, pal.slug], testsActor)).changed).toBe(false);
    expect(heard).toHaveLength(1);

    // Dropping one: its page is told (the story leaves it), and the story keeps the other.
    await setStoryTeams(deps(services), id, [fla.slug], testsActor);
    expect(heard[1]?.[1]?.paths).toContain("/time/palmeiras");
    expect(await storyTeams(db, id)).toEqual([fla]);

    // Refused, with nothing stored: a club not in the list, more than six, a story that does not exist.
    expect(await refusal(() => setStoryTeams(deps(services), id, [fla.slug, "inventado"], testsActor))).toMatchObject({
      code: "team_unknown",
      status: 400,
    });
    const many: string[] = [];
    for (let n = 0; n <= TEAMS_PER_STORY; n++) many.push((await addTeam(deps(services), `Clube ${n + 1}`, testsActor)).slug);
    expect(await refusal(() => setStoryTeams(deps(services), id, many, testsActor))).toMatchObject({ code: "teams_too_many", status: 400 });
    expect(await refusal(() => setStoryTeams(deps(services), "nao-existe", [], testsActor))).toMatchObject({ code: "news_not_found", status: 404 });
    expect(await storyTeams(db, id)).toEqual([fla]);

    // A reporter tags only their own story; a draft's change is the newsroom's alone.
    const reporter = { userId: "reporter-1", role: "reporter" as const };
    expect(await refusal(() => setStoryTeams(deps(services), id, [], memberActor(reporter)))).toMatchObject({ code: "story_not_yours", status: 403 });
    await db.updateTable("news").set({ owner_id: "reporter-1", status: "draft" }).where("id", "=", id).execute();
    await setStoryTeams(deps(services), id, [pal.slug], memberActor(reporter));
    expect(heard.at(-1)?.[1]?.newsroomOnly).toBe(true);
    expect(await storyTeams(db, id)).toEqual([pal]);
  });

  it("a página do time: só as notícias publicadas dele, a mais nova primeiro, em páginas; o menu conta só as publicadas", async () => {
    const services = await open();
    const { db } = services.database;
    const fla = await addTeam(deps(services), "Flamengo", testsActor);
    const pal = await addTeam(deps(services), "Palmeiras", testsActor);
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) {
      const id = await createNews(services, { title: `Flamengo ${n + 1}`, media: null, createdAt: new Date(Date.UTC(2026, 10, 1, n)) });
      await setStoryTeams(deps(services), id, [fla.slug], testsActor);
      ids.push(id);
    }
    const other = await createNews(services, { title: "Palmeiras", media: null });
    await setStoryTeams(deps(services), other, [pal.slug], testsActor);
    // A draft tagged with the club is nowhere a reader looks.
    await db.updateTable("news").set({ status: "draft" }).where("id", "=", ids[4]!).execute();

    const first = await services.news.listNewsPage({ limit: 2, teamSlug: fla.slug });
    expect(first.items.map((item) => item.id)).toEqual([ids[3], ids[2]]);
    const second = await services.news.listNewsPage({ limit: 2, teamSlug: fla.slug, cursor: first.nextCursor });
    expect(second.items.map((item) => item.id)).toEqual([ids[1], ids[0]]);
    expect(second.nextCursor).toBeNull();

    expect(await listTeamsInUse(db)).toEqual([
      { slug: "flamengo", name: "Flamengo", count: 4 },
      { slug: "palmeiras", name: "Palmeiras", count: 1 },
    ]);
    // The menu's list is kept in memory until the news change.
    services.news.invalidate();
    expect((await services.news.listTeamsInUse()).map((team) => team.slug)).toEqual(["flamengo", "palmeiras"]);
    expect(await services.news.getTeam("flamengo")).toEqual(fla);
    expect(await refusal(() => services.news.getTeam("nao-existe"))).toMatchObject({ status: 404 });

    // Removing the club from the list takes its tags, not its stories.
    await removeTeam(deps(services), pal.slug, testsActor);
    expect(await storyTeams(db, other)).toEqual([]);
    expect(await db.selectFrom("news").select("id").where("id", "=", other).executeTakeFirst()).toBeDefined();
  });

  it("o RSS do time e o da categoria: as publicadas deles; um time fora da lista ou uma categoria sem notícias não têm RSS", async () => {
    const services = await open();
    const fla = await addTeam(deps(services), "Flamengo", testsActor);
    await addTeam(deps(services), "Vazio", testsActor);
    const tagged = await createNews(services, { title: "Flamengo vence", media: null, category: "Futebol" });
    await setStoryTeams(deps(services), tagged, [fla.slug], testsActor);
    await createNews(services, { title: "Vôlei na final", media: null, category: "Vôlei" });
    const syndication = createSyndication({ db: services.database.db, store: services.store, site: SITE });

    const teamFeed = parseFeed((await syndication.termRss("team", "flamengo")) ?? "");
    expect(teamFeed.title).toBe("Esporte em Foco: Flamengo");
    expect(teamFeed.items.map((item) => item.title)).toEqual(["Flamengo vence"]);
    expect(teamFeed.url).toBe("https://esporte.example.com.br/time/flamengo");

    const sectionFeed = parseFeed((await syndication.termRss("category", "volei")) ?? "");
    expect(sectionFeed.title).toBe("Esporte em Foco: Vôlei");
    expect(sectionFeed.items.map((item) => item.title)).toEqual(["Vôlei na final"]);

    // A club in the list without stories has an empty feed; unknown ones have none.
    expect(parseFeed((await syndication.termRss("team", "vazio")) ?? "").items).toEqual([]);
    expect(await syndication.termRss("team", "nao-existe")).toBeNull();
    expect(await syndication.termRss("category", "nao-existe")).toBeNull();
  });

  it("um jogo com times da lista marca a notícia com eles, sem tirar o que ela já tem", async () => {
    const services = await open();
    const { db } = services.database;
    const fla = await addTeam(deps(services), "Flamengo", testsActor);
    const pal = await addTeam(deps(services), "Palmeiras", testsActor);
    const sp = await addTeam(deps(services), "São Paulo", testsActor);
    const id = await createNews(services, { title: "Clássico", media: null });
    await setStoryTeams(deps(services), id, [sp.slug], testsActor);
    const added = await db.transaction().execute((trx) => tagMatchTeams(trx, id, ["FLAMENGO", "Palmeiras ", "Time de fora"]));
    expect(added.sort()).toEqual(["flamengo", "palmeiras"]);
    expect(await storyTeams(db, id)).toEqual([fla, pal, sp]);
    expect(await db.transaction().execute((trx) => tagMatchTeams(trx, id, ["Flamengo"]))).toEqual([]);

    // Through the live coverage's scoreboard: the match's clubs tag the story, and their pages are told.
    const other = await createNews(services, { title: "Palmeiras x São Paulo", media: null });
    const heard = heardEvents(services);
    await services.liveCoverage.changeCoverage(
      other,
      { scoreboard: { home: "Palmeiras", away: "Sao Paulo", homeScore: 0, awayScore: 0, period: "" } },
      testsActor,
    );
    expect(await storyTeams(db, other)).toEqual([pal, sp]);
    expect(heard.find(([event]) => event === "newsUpdated")?.[1]?.paths).toEqual(expect.arrayContaining(["/time/palmeiras", "/time/sao-paulo"]));
  });
});

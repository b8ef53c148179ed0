/**
 * Web Push alerts (issue 36, item 2), end to end on this machine: readers' browsers subscribe through
 * POST /api/push/subscriptions, the desk sends a story (POST /api/news/:id/alert) or a live update (`alert: true`)
 * as an alert, and a push service speaking the real protocol (tests/factories/push-service.ts: VAPID checked, the
 * message decrypted with each browser's keys) receives it. Who gets what by topic, each once, a browser the service
 * says is gone removed, the pt-BR refusals, and the time from the post to the last browser reached. Real services on
 * a fresh database (SQLite, then PostgreSQL), the route modules' own loaders and actions.
 */
import { afterEach, describe, expect, it } from "vitest";
import { t } from "#app/i18n/newsroom.ts";
import { t as reader } from "#app/i18n/pt-BR.ts";
import { PUSH_LIMITS, PUSH_TOPICS } from "#app/lib/push-topics.ts";
import * as newsAlert from "#app/routes/api/news-alert.ts";
import * as liveUpdates from "#app/routes/api/news-live-updates.ts";
import * as pushKey from "#app/routes/api/push.ts";
import * as subscriptions from "#app/routes/api/push-subscriptions.ts";
import { clientIpContext } from "#app/lib/request-context.ts";
import { createNews } from "#tests/factories/news.ts";
import { type PushServiceStandIn, type PushSubscriber, startPushService } from "#tests/factories/push-service.ts";
import { memberSessionCookie, routeContextOf } from "#tests/factories/route-context.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";

const ORIGIN = "http://127.0.0.1:4321";
const open = useTestServices("eef-push-", { SITE_URL: ORIGIN });

let pushService: PushServiceStandIn | null = null;
afterEach(async () => {
  await pushService?.close();
  pushService = null;
});

async function setUp(env: Record<string, string> = {}) {
  pushService = await startPushService();
  const services = await open({ PUSH_SERVICES: pushService.origin, ...env });
  return { services, push: pushService };
}

function contextFrom(services: TestServices, ip = "10.2.0.1") {
  const context = routeContextOf(services);
  context.set(clientIpContext, ip);
  return context;
}

async function call(
  handler: (args: never) => Promise<Response> | Response,
  services: TestServices,
  init: { path: string; method?: string; body?: unknown; cookie?: string; params?: Record<string, string>; ip?: string },
) {
  const headers: Record<string, string> = { Origin: ORIGIN };
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  if (init.cookie) headers.Cookie = init.cookie;
  const request = new Request(`${ORIGIN}${init.path}`, {
    method: init.method ?? "POST",
    headers,
    body: init.body === undefined ? null : JSON.stringify(init.body),
  });
  const response = await handler({ request, params: init.params ?? {}, context: contextFrom(services, init.ip) } as never);
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers, read by path in the assertions
  return { status: response.status, json: (text ? JSON.parse(text) : null) as Record<string, any> | null };
}

const follow = (services: TestServices, subscriber: PushSubscriber, topics: string[], ip?: string) =>
  call(subscriptions.action, services, {
    path: "/api/push/subscriptions",
    body: { subscription: subscriber.subscription, topics },
    ...(ip ? { ip } : {}),
  });

async function publishedStory(services: TestServices, teams: string[] = []) {
  const id = await createNews(services, { media: null, title: "Clássico decidido no fim", subtitle: "Virada no Maracanã", category: "Futebol" });
  const { db } = services.database;
  for (const slug of teams) {
    await db
      .insertInto("teams")
      .values({ slug, name: slug, name_key: slug, created_at: new Date().toISOString(), created_by: null })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    await db.insertInto("news_teams").values({ news_id: id, team_slug: slug }).execute();
  }
  return id;
}

describe("Web Push alerts", () => {
  it("the public key: one VAPID pair for the installation, the same on every call", async () => {
    const { services } = await setUp();
    const first = await call(pushKey.loader, services, { path: "/api/push", method: "GET" });
    expect(first.status).toBe(200);
    expect(Buffer.from(first.json?.publicKey as string, "base64url")).toHaveLength(65);
    const again = await call(pushKey.loader, services, { path: "/api/push", method: "GET" });
    expect(again.json?.publicKey).toBe(first.json?.publicKey);
  });

  it("a story alert reaches its section's, its clubs' and the site's followers once each, signed and encrypted; others get nothing; a gone browser is removed", async () => {
    const { services, push } = await setUp();
    const editor = await memberSessionCookie(services, "editor");
    const story = await publishedStory(services, ["flamengo"]);

    const general = push.subscribe();
    const section = push.subscribe();
    const club = push.subscribe();
    const everything = push.subscribe(); // follows three of the story's topics: one message all the same
    const otherClub = push.subscribe();
    const gone = push.subscribe();
    expect((await follow(services, general, [PUSH_TOPICS.general])).status).toBe(200);
    expect((await follow(services, section, [PUSH_TOPICS.section("futebol")])).status).toBe(200);
    expect((await follow(services, club, [PUSH_TOPICS.team("flamengo")])).status).toBe(200);
    expect((await follow(services, everything, [PUSH_TOPICS.general, PUSH_TOPICS.section("futebol"), PUSH_TOPICS.team("flamengo")])).status).toBe(
      200,
    );
    expect((await follow(services, otherClub, [PUSH_TOPICS.team("vasco")])).status).toBe(200);
    expect((await follow(services, gone, [PUSH_TOPICS.general])).status).toBe(200);
    gone.gone = true;

    const sent = await call(newsAlert.action, services, { path: `/api/news/${story}/alert`, body: {}, cookie: editor.cookie, params: { id: story } });
    expect(sent.status).toBe(202);
    expect(sent.json?.alert.recipients).toBe(5); // "everything" follows three of its topics: counted once
    await services.pushAlerts.idle();

    for (const subscriber of [general, section, club, everything]) {
      expect(subscriber.messages).toHaveLength(1);
      expect(subscriber.messages[0]?.payload).toEqual({
        title: "Clássico decidido no fim",
        body: "Virada no Maracanã",
        url: `/article/${story}/classico-decidido-no-fim`,
        tag: `story:${story}`,
      });
      expect(subscriber.messages[0]?.urgency).toBe("high");
    }
    expect(otherClub.messages).toHaveLength(0);
    expect(push.refused).toEqual([]);
    // The push service said 410: that browser is gone from the database, with what it followed.
    expect(await services.pushAlerts.topicsOf(gone.endpoint)).toBeNull();
    expect(await services.pushAlerts.topicsOf(general.endpoint)).toEqual(["geral"]);
    const row = await services.database.db.selectFrom("push_alerts").selectAll().where("news_id", "=", story).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ alert_key: `story:${story}`, created_by: editor.userId, recipients: 5, delivered: 4, removed: 1, failed: 0 });
    expect(row.finished_at).not.toBeNull();

    // Once: the second press is refused and nobody gets it twice.
    const twice = await call(newsAlert.action, services, {
      path: `/api/news/${story}/alert`,
      body: {},
      cookie: editor.cookie,
      params: { id: story },
    });
    expect(twice).toMatchObject({ status: 409, json: { error: { code: "alert_already_sent", message: t.deskAlerts.alreadySent } } });
    await services.pushAlerts.idle();
    expect(general.messages).toHaveLength(1);
  });

  it("a goal posted as an alert reaches the match's and the clubs' followers with the score; a reporter's alert is refused before posting", async () => {
    const { services, push } = await setUp();
    const editor = await memberSessionCookie(services, "editor");
    const reporter = await memberSessionCookie(services, "reporter", "10.1.0.4");
    const story = await publishedStory(services, ["vasco"]);
    const { db } = services.database;
    await db
      .updateTable("news")
      .set({
        live_coverage: "live",
        owner_id: reporter.userId,
        live_scoreboard: JSON.stringify({ home: "Flamengo", away: "Vasco", homeScore: 2, awayScore: 1, period: "2º tempo" }),
      })
      .where("id", "=", story)
      .execute();
    const match = push.subscribe();
    const club = push.subscribe();
    const general = push.subscribe();
    await follow(services, match, [PUSH_TOPICS.match(story)]);
    await follow(services, club, [PUSH_TOPICS.team("vasco")]);
    await follow(services, general, [PUSH_TOPICS.general]);

    const goal = { text: "Gol do Flamengo! Cabeçada no segundo pau.", eventType: "goal", minute: "77", alert: true };
    const refused = await call(liveUpdates.action, services, {
      path: `/api/news/${story}/updates`,
      body: goal,
      cookie: reporter.cookie,
      params: { id: story },
    });
    expect(refused).toMatchObject({ status: 403, json: { error: { code: "alert_forbidden", message: t.deskAlerts.forbidden } } });
    expect(await db.selectFrom("news_live_updates").select("id").where("news_id", "=", story).execute()).toHaveLength(0);

    const posted = await call(liveUpdates.action, services, {
      path: `/api/news/${story}/updates`,
      body: goal,
      cookie: editor.cookie,
      params: { id: story },
    });
    expect(posted.status).toBe(201);
    expect(posted.json?.alert.recipients).toBe(2);
    await services.pushAlerts.idle();
    for (const subscriber of [match, club]) {
      expect(subscriber.messages.map((message) => message.payload)).toEqual([
        { title: "Gol! Flamengo 2 × 1 Vasco", body: goal.text, url: `/article/${story}/classico-decidido-no-fim`, tag: `jogo:${story}` },
      ]);
    }
    await services.pushAlerts.idle();
    expect(general.messages).toHaveLength(0);

    // An update on a story readers cannot see is posted; the alert is not sent, and the answer says why.
    await db.updateTable("news").set({ status: "draft" }).where("id", "=", story).execute();
    const hidden = await call(liveUpdates.action, services, {
      path: `/api/news/${story}/updates`,
      body: goal,
      cookie: editor.cookie,
      params: { id: story },
    });
    expect(hidden).toMatchObject({ status: 201, json: { alertError: { code: "alert_not_public", message: t.deskAlerts.notPublic } } });
    await services.pushAlerts.idle();
    expect(match.messages).toHaveLength(1);
  });

  it("refuses in Portuguese: a push service not on the list, keys that are not keys, topics out of bounds; DELETE removes; 60 changes an hour per address", async () => {
    const { services, push } = await setUp();
    const browser = push.subscribe();
    const bad = async (body: unknown) => (await call(subscriptions.action, services, { path: "/api/push/subscriptions", body })).json;

    // Anyone could otherwise make the server post to an address of their choosing.
    for (const endpoint of ["https://example.com/push/1", "http://127.0.0.1:1/push/1", `${push.origin.replace("http:", "https:")}/x`, "nada"]) {
      expect(await bad({ subscription: { ...browser.subscription, endpoint }, topics: ["geral"] })).toEqual({
        error: { code: "push_service_not_allowed", message: reader.alerts.serviceNotAllowed },
      });
    }
    for (const keys of [{ p256dh: "abc", auth: browser.subscription.keys.auth }, { p256dh: browser.subscription.keys.p256dh, auth: "" }, null]) {
      expect(await bad({ subscription: { endpoint: browser.endpoint, keys }, topics: ["geral"] })).toEqual({
        error: { code: "invalid_subscription", message: reader.alerts.invalidSubscription },
      });
    }
    const tooMany = Array.from({ length: PUSH_LIMITS.topicsPerBrowser + 1 }, (_, n) => `time:clube-${n}`);
    for (const topics of [[], ["tudo"], ["time:Flamengo"], ["jogo:a b"], tooMany, "geral"]) {
      expect(await bad({ subscription: browser.subscription, topics })).toEqual({
        error: { code: "invalid_topics", message: reader.alerts.invalidTopics(PUSH_LIMITS.topicsPerBrowser) },
      });
    }
    expect(await services.pushAlerts.countSubscriptions()).toBe(0);

    // The whole list each time: following a second topic sends both; the endpoint is the key.
    await follow(services, browser, ["geral"]);
    await follow(services, browser, ["geral", "time:vasco"]);
    expect(await services.pushAlerts.topicsOf(browser.endpoint)).toEqual(["geral", "time:vasco"]);
    expect(await services.pushAlerts.countSubscriptions()).toBe(1);
    const remove = () =>
      call(subscriptions.action, services, { path: "/api/push/subscriptions", method: "DELETE", body: { endpoint: browser.endpoint } });
    expect((await remove()).status).toBe(204);
    expect(await remove()).toEqual({ status: 404, json: { error: { code: "not_subscribed", message: reader.alerts.notSubscribed } } });

    // One address, many changes: the 61st in the hour is refused (another address is not).
    const flooder = push.subscribe();
    let last = 0;
    for (let n = 0; n < 60; n++) last = (await follow(services, flooder, ["geral"], "10.9.9.9")).status;
    expect(last).toBe(200);
    const limited = await follow(services, flooder, ["geral"], "10.9.9.9");
    expect(limited.status).toBe(429);
    expect(limited.json?.error.code).toBe("alerts_rate_limited");
    expect((await follow(services, flooder, ["geral"], "10.9.9.10")).status).toBe(200);
  });

  it("only editors and admins send; a draft is refused; PUSH_ALERTS=0 answers 404 everywhere", async () => {
    const { services } = await setUp();
    const reporter = await memberSessionCookie(services, "reporter");
    const editor = await memberSessionCookie(services, "editor", "10.1.0.5");
    const story = await publishedStory(services);
    const byReporter = await call(newsAlert.action, services, {
      path: `/api/news/${story}/alert`,
      body: {},
      cookie: reporter.cookie,
      params: { id: story },
    });
    expect(byReporter.status).toBe(403);
    await services.database.db.updateTable("news").set({ status: "draft" }).where("id", "=", story).execute();
    const draft = await call(newsAlert.action, services, {
      path: `/api/news/${story}/alert`,
      body: {},
      cookie: editor.cookie,
      params: { id: story },
    });
    expect(draft).toMatchObject({ status: 409, json: { error: { code: "alert_not_public", message: t.deskAlerts.notPublic } } });
    expect(await services.database.db.selectFrom("push_alerts").select("id").execute()).toHaveLength(0);

    const off = await open({ PUSH_ALERTS: "0" });
    expect((await call(pushKey.loader, off, { path: "/api/push", method: "GET" })).json).toEqual({
      error: { code: "push_disabled", message: t.deskAlerts.disabled },
    });
  });

  it("300 browsers following one match: every one reached once, each message decrypted (the time from the post printed)", async () => {
    const { services, push } = await setUp();
    const editor = await memberSessionCookie(services, "editor");
    const story = await publishedStory(services);
    await services.database.db.updateTable("news").set({ live_coverage: "live" }).where("id", "=", story).execute();
    const browsers = Array.from({ length: 300 }, () => push.subscribe());
    for (const browser of browsers)
      await services.pushAlerts.subscribe({ endpoint: browser.endpoint, ...browser.subscription.keys, topics: [PUSH_TOPICS.match(story)] });
    expect(browsers).toHaveLength(300);

    const posted = Date.now();
    const answer = await call(liveUpdates.action, services, {
      path: `/api/news/${story}/updates`,
      body: { text: "Fim de jogo no Maracanã.", eventType: "full_time", alert: true },
      cookie: editor.cookie,
      params: { id: story },
    });
    expect(answer.json?.alert.recipients).toBe(300);
    // Sent after the answer; idle() resolves once every browser was tried. How long it took is printed, not asserted
    // (a loaded machine is slower; the figure goes in the note).
    await services.pushAlerts.idle();
    const last = Math.max(...browsers.map((browser) => browser.messages[0]!.at));
    console.info(`push: 300 browsers reached ${last - posted} ms after the post`);
    expect(browsers.every((browser) => browser.messages.length === 1 && String(browser.messages[0]!.payload.title).startsWith("Fim de jogo:"))).toBe(
      true,
    );
    expect(push.refused).toEqual([]);
  });
});

/**
 * Goal alerts on a reader's phone (issue 36, item 2), in Chromium: the reader taps "Avisar gols deste jogo" (the
 * browser asks for permission only then), the desk posts a goal with "Enviar como alerta", the push service receives
 * it (tests/factories/push-service.ts, on loopback: VAPID checked, decrypted with the browser's keys) and the readers'
 * service worker shows it, leading to the story.
 *
 * Two parts of the browser stand in for what this machine cannot reach: the push service's subscription (Chrome's
 * `PushManager.subscribe` asks Google's servers) returns one at the stand-in with keys made in the test, and the
 * permission prompt (a browser dialog) answers "Permitir" and counts when it was asked. The message the stand-in
 * received is then handed to the worker as Chrome's push service would (DevTools protocol: deliverPushMessage).
 */
import type { CDPSession } from "@playwright/test";
import { PUSH_TOPICS } from "#app/lib/push-topics.ts";
import { t as desk } from "#app/i18n/newsroom.ts";
import { createNews } from "#tests/factories/news.ts";
import { type PushServiceStandIn, startPushService } from "#tests/factories/push-service.ts";
import { withSiteServices } from "#tests/factories/site-data.ts";
import { expect, openPage, signInAsAdmin, t, test } from "./support/fixtures.ts";

/** In the page, before any script: the permission prompt and the push service's subscription (see above). */
function browserStandIns(subscription: { endpoint: string; keys: { p256dh: string; auth: string } }) {
  const state = window as unknown as { __permissionAsked: number; __serverKey: string | null };
  state.__permissionAsked = 0;
  state.__serverKey = null;
  let permission: NotificationPermission = "default";
  Object.defineProperty(Notification, "permission", { get: () => permission });
  Notification.requestPermission = async () => {
    state.__permissionAsked++;
    permission = "granted";
    return permission;
  };
  const stored = () => localStorage.getItem("test:push-subscription") !== null;
  const fake = () => ({
    endpoint: subscription.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true },
    toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys }),
    unsubscribe: async () => {
      localStorage.removeItem("test:push-subscription");
      return true;
    },
  });
  PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
    const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
    state.__serverKey = btoa(String.fromCharCode(...key))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    localStorage.setItem("test:push-subscription", "1");
    return fake() as unknown as PushSubscription;
  };
  PushManager.prototype.getSubscription = async () => (stored() ? (fake() as unknown as PushSubscription) : null);
}

/** Chrome's push service delivering `data` to the site's worker. */
async function deliverToWorker(cdp: CDPSession, origin: string, data: string) {
  const registrationId = await new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const found = registrations.find((registration) => registration.scopeURL.startsWith(origin) && !registration.isDeleted);
      if (found) resolve(found.registrationId);
    });
    void cdp.send("ServiceWorker.enable");
  });
  await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data });
}

test.describe("alertas de gol (Web Push)", () => {
  test.use({ serviceWorkers: "allow" });
  let pushService: PushServiceStandIn | null = null;
  test.afterEach(async () => {
    await pushService?.close();
    pushService = null;
  });

  test("o leitor toca 'Avisar gols deste jogo' (só então o navegador pergunta), a redação posta um gol como alerta, o celular mostra a notificação que leva à notícia; tocar de novo desativa", async ({
    browser,
    page,
    launchSite,
  }) => {
    pushService = await startPushService();
    const push = pushService;
    const phone = push.subscribe();
    let storyId = "";
    const site = await launchSite({
      env: { PUSH_SERVICES: push.origin },
      async setup(services) {
        storyId = await createNews(services, { title: "Flamengo x Vasco ao vivo", media: null, category: "Futebol" });
        const { db } = services.database;
        await db
          .updateTable("news")
          .set({
            live_coverage: "live",
            live_started_at: new Date().toISOString(),
            live_scoreboard: JSON.stringify({ home: "Flamengo", away: "Vasco", homeScore: 1, awayScore: 0, period: "2º tempo" }),
          })
          .where("id", "=", storyId)
          .execute();
        await db
          .insertInto("teams")
          .values({ slug: "vasco", name: "Vasco", name_key: "vasco", created_at: new Date().toISOString(), created_by: null })
          .execute();
      },
    });
    // The browser's own grant, from the start (the worker, started before a later grant, may keep refusing): the page
    // still sees "default" until its prompt, the stand-in above, is answered.
    await page.context().grantPermissions(["notifications"]);
    await page.addInitScript(browserStandIns, phone.subscription);
    const storyPath = `/article/${storyId}`;

    // Before the tap: nothing asked, nothing sent.
    await openPage(page, site, storyPath);
    const follow = page.getByRole("button", { name: t.alerts.followMatch });
    await expect(follow).toHaveAttribute("aria-pressed", "false");
    expect(await page.evaluate(() => (window as unknown as { __permissionAsked: number }).__permissionAsked)).toBe(0);

    await follow.click();
    const following = page.getByRole("button", { name: t.alerts.followingMatch });
    await expect(following).toHaveAttribute("aria-pressed", "true");
    expect(await page.evaluate(() => (window as unknown as { __permissionAsked: number }).__permissionAsked)).toBe(1);
    // Subscribed with the site's own key, following this match.
    const siteKey = ((await (await page.request.get(`${site.url}/api/push`)).json()) as { publicKey: string }).publicKey;
    expect(await page.evaluate(() => (window as unknown as { __serverKey: string }).__serverKey)).toBe(siteKey);
    expect(await withSiteServices(site, (services) => services.pushAlerts.topicsOf(phone.endpoint))).toEqual([PUSH_TOPICS.match(storyId)]);
    // Remembered on the device.
    await page.reload();
    await expect(page.getByRole("button", { name: t.alerts.followingMatch })).toHaveAttribute("aria-pressed", "true");
    // The club's page offers its own, not followed yet.
    await openPage(page, site, "/time/vasco");
    await expect(page.getByRole("button", { name: t.alerts.follow, exact: true })).toHaveAttribute("aria-pressed", "false");
    // And the footer, the site's most important news (another topic, another name).
    await expect(page.getByRole("contentinfo").getByRole("button", { name: t.alerts.followGeneral })).toHaveAttribute("aria-pressed", "false");

    // The desk: a goal, posted as an alert from the article's composer.
    const deskContext = await browser.newContext({ serviceWorkers: "block" });
    await signInAsAdmin(deskContext, site);
    const newsroom = await deskContext.newPage();
    await openPage(newsroom, site, storyPath);
    const composer = newsroom.getByTestId("live-composer");
    await composer.getByLabel(desk.liveNewsroom.textLabel).fill("GOL DO FLAMENGO! Pedro de cabeça.");
    await composer.getByLabel(desk.liveNewsroom.eventLabel).selectOption("goal");
    await composer.getByLabel(desk.deskAlerts.updateOption).check();
    await composer.getByRole("button", { name: desk.liveNewsroom.post }).click();
    await expect(composer.getByRole("status")).toHaveText(desk.deskAlerts.sentUpdate(1));
    await deskContext.close();

    // A deadline for the wait, not a measure: the time to deliver is printed by tests/integration/push-alerts.test.ts.
    await push.waitForMessages(1, 30_000);
    const message = phone.messages[0]!;
    expect(message.payload).toMatchObject({ title: "Gol! Flamengo 1 × 0 Vasco", body: "GOL DO FLAMENGO! Pedro de cabeça.", tag: `jogo:${storyId}` });
    expect(String(message.payload.url)).toMatch(new RegExp(`^/article/${storyId}/flamengo-x-vasco-ao-vivo$`));

    // The phone's worker gets it from the push service and shows it; its link is the story's.
    await openPage(page, site, storyPath);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 }).toBe(true);
    const cdp = await page.context().newCDPSession(page);
    await deliverToWorker(cdp, site.url, JSON.stringify(message.payload));
    await expect
      .poll(
        () =>
          page.evaluate(async () =>
            (await (await navigator.serviceWorker.ready).getNotifications()).map((shown) => ({
              title: shown.title,
              body: shown.body,
              data: shown.data,
            })),
          ),
        { timeout: 10_000 },
      )
      .toEqual([{ title: "Gol! Flamengo 1 × 0 Vasco", body: "GOL DO FLAMENGO! Pedro de cabeça.", data: { url: message.payload.url } }]);

    // Off again: the subscription leaves the site's database.
    await page.getByRole("button", { name: t.alerts.followingMatch }).click();
    await expect(page.getByRole("button", { name: t.alerts.followMatch })).toHaveAttribute("aria-pressed", "false");
    await expect(page.getByText(t.alerts.stopped)).toBeVisible();
    expect(await withSiteServices(site, (services) => services.pushAlerts.topicsOf(phone.endpoint))).toBeNull();
  });

  test("a redação envia uma notícia publicada como alerta pela página de edição: confirma, vê quantos aparelhos e o resultado; uma vez só", async ({
    page,
    launchSite,
  }) => {
    pushService = await startPushService();
    const push = pushService;
    const reader = push.subscribe();
    let storyId = "";
    const site = await launchSite({
      env: { PUSH_SERVICES: push.origin },
      async setup(services) {
        storyId = await createNews(services, {
          title: "Seleção convocada para a Copa",
          subtitle: "A lista saiu agora",
          media: null,
          category: "Futebol",
        });
        await services.pushAlerts.subscribe({ endpoint: reader.endpoint, ...reader.subscription.keys, topics: [PUSH_TOPICS.section("futebol")] });
      },
    });
    await signInAsAdmin(page, site);
    await openPage(page, site, `/edit-news/${storyId}`);
    const panel = page.getByTestId("story-alert");
    await expect(panel.getByRole("heading", { name: desk.deskAlerts.panelTitle })).toBeVisible();
    await expect(panel.getByTestId("story-alert-followers")).toHaveText(desk.deskAlerts.followers(1));
    // The box first: the browser does not send the form without it.
    await panel.getByRole("button", { name: desk.deskAlerts.send }).click();
    expect(push.refused).toEqual([]);
    await panel.getByLabel(desk.deskAlerts.confirm).check();
    await panel.getByRole("button", { name: desk.deskAlerts.send }).click();
    await expect(page.getByTestId("story-alert").getByText(desk.deskAlerts.sent)).toBeVisible();
    await push.waitForMessages(1, 30_000);
    expect(reader.messages[0]?.payload).toMatchObject({ title: "Seleção convocada para a Copa", body: "A lista saiu agora" });
    // Sent once: no form any more, and the outcome in the list.
    await expect
      .poll(async () => {
        await openPage(page, site, `/edit-news/${storyId}`);
        return page.getByTestId("story-alert-sent").textContent();
      })
      .toContain(desk.deskAlerts.outcome(1, 0, 0));
    await expect(page.getByTestId("story-alert-send")).toHaveCount(0);
  });
});

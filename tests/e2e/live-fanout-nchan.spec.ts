/**
 * LIVE_FANOUT=nchan (issue 35): Debian's nginx with the nchan module and the shipped site file
 * (deploy/nginx/esporte-em-foco-nchan.conf) in front of the site, which publishes every event to it. A reader's open
 * page holds its stream at nchan and gets a live update without reloading; a signed-in member's stream is the app's
 * (it also carries what only the newsroom sees, which never reaches nchan); strangers cannot publish.
 */
import http from "node:http";
import { createAdmin, type TestAccount } from "#tests/factories/auth.ts";
import { createNews } from "#tests/factories/news.ts";
import { type RunningNginx, startNginx } from "#tests/factories/nginx.ts";
import { freePort } from "#tests/factories/site.ts";
import { apiHeaders, expect, expectStatus, SESSION_COOKIE, signInAsAdmin, test } from "./support/fixtures.ts";

/** A raw event stream through nginx: its answer's headers and everything read so far. */
function openStream(url: string, headers: Record<string, string> = {}) {
  let text = "";
  let answer: http.IncomingMessage | null = null;
  const request = http.get(`${url}/events`, { headers: { Accept: "text/event-stream", ...headers } }, (response) => {
    answer = response;
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => (text += chunk));
  });
  request.on("error", () => undefined);
  return {
    text: () => text,
    headers: () => answer?.headers ?? null,
    status: () => answer?.statusCode ?? 0,
    close: () => request.destroy(),
  };
}

test("nchan na frente: o leitor recebe a atualização pelo nchan sem recarregar; a redação fica com o app; ninguém de fora publica", async ({
  launchSite,
  browser,
}) => {
  test.slow();
  const publishPort = await freePort();
  let account!: TestAccount;
  let live = "";
  let draft = "";
  const site = await launchSite({
    env: { LIVE_FANOUT: "nchan", NCHAN_PUBLISH_URL: `http://127.0.0.1:${publishPort}/_nchan/pub`, TRUST_PROXY: "loopback" },
    async setup(services) {
      account = await createAdmin(services, { password: "Senha-admin-1" });
      live = await createNews(services, { title: "Grêmio x Inter ao vivo", media: null });
      draft = await createNews(services, { title: "Escalação ainda em segredo", media: null });
      const scoreboard = JSON.stringify({ home: "Grêmio", away: "Inter", homeScore: 0, awayScore: 0, period: "1º tempo" });
      await services.database.db
        .updateTable("news")
        .set({ live_coverage: "live", live_started_at: new Date().toISOString(), live_scoreboard: scoreboard })
        .where("id", "in", [live, draft])
        .execute();
      await services.database.db.updateTable("news").set({ status: "draft" }).where("id", "=", draft).execute();
    },
  });
  const port = Number(new URL(site.url).port);
  let nginx: RunningNginx | null = null;
  const streams: Array<ReturnType<typeof openStream>> = [];
  const admin = await browser.newContext();
  const readers = await browser.newContext();
  try {
    nginx = await startNginx({ backendPort: port, nchan: true, publishPort });
    const front = nginx.url;
    await signInAsAdmin(admin, site, account);
    const session = (await admin.cookies()).find((cookie) => cookie.name === SESSION_COOKIE)!;

    // A reader's stream is nchan's (none of the app's headers); a member's is the app's.
    const reader = openStream(front);
    const member = openStream(front, { Cookie: `${SESSION_COOKIE}=${session.value}` });
    streams.push(reader, member);
    await expect.poll(() => reader.status()).toBe(200);
    await expect.poll(() => member.status()).toBe(200);
    expect(reader.headers()?.["content-type"]).toContain("text/event-stream");
    expect(reader.headers()?.["content-security-policy"]).toBeUndefined();
    expect(member.headers()?.["content-security-policy"]).toBeDefined();
    await expect.poll(() => member.text()).toContain(": conectado");

    const page = await readers.newPage();
    // nchan gives a stream the messages published after it subscribed: the desk posts once the page's own stream (opened
    // by its script, after hydration) has been answered.
    const pageStream = page.waitForResponse((response) => new URL(response.url()).pathname === "/events");
    await page.goto(`${front}/article/${live}`);
    await expect(page.getByTestId("score-home")).toHaveText("0");
    expect((await pageStream).status()).toBe(200);
    const asked: string[] = [];
    page.on("request", (request) => asked.push(new URL(request.url()).pathname));
    await page.evaluate(() => ((window as unknown as { marked: boolean }).marked = true));

    // The desk posts; the reader's page shows it, from the event nchan wrote, without asking the app.
    const text = `Gol do Grêmio! ${Date.now()}`;
    const posted = await admin.request.post(`${site.url}/api/news/${live}/updates`, { data: { text }, headers: apiHeaders(site) });
    await expectStatus(posted, 201, "POST atualização");
    await expect(page.getByTestId("live-update").first()).toContainText(text);
    expect(await page.evaluate(() => (window as unknown as { marked?: boolean }).marked)).toBe(true);
    expect(asked.filter((path) => path.startsWith("/api/news/") || path.endsWith(".data"))).toEqual([]);
    await expect.poll(() => reader.text()).toContain(text);
    expect(reader.text()).toContain("event: liveUpdated");
    // The score, too.
    const scored = await admin.request.patch(`${site.url}/api/news/${live}`, {
      data: { scoreboard: { home: "Grêmio", away: "Inter", homeScore: 1, awayScore: 0, period: "1º tempo" } },
      headers: apiHeaders(site),
    });
    await expectStatus(scored, 200, "PATCH placar");
    await expect(page.getByTestId("score-home")).toHaveText("1");

    // The publisher is on a loopback-only server of its own: on the public one, /_nchan/pub is the app's (refused).
    const forged = await readers.request.post(`${front}/_nchan/pub`, {
      data: '{"paths":[]}',
      headers: { "Content-Type": "application/json", "X-EventSource-Event": "resync" },
    });
    expect(forged.status()).toBeGreaterThanOrEqual(400);

    // A draft's coverage is the newsroom's: the member's stream hears it, nchan never gets it.
    const secret = `Escalação: segredo ${Date.now()}`;
    await expectStatus(
      await admin.request.post(`${site.url}/api/news/${draft}/updates`, { data: { text: secret }, headers: apiHeaders(site) }),
      201,
      "POST atualização do rascunho",
    );
    await expect.poll(() => member.text()).toContain(secret);
    // Ordered after it: once this one is at the reader's stream, the draft's would have been too.
    const marker = `Fim do primeiro tempo ${Date.now()}`;
    await expectStatus(
      await admin.request.post(`${site.url}/api/news/${live}/updates`, { data: { text: marker }, headers: apiHeaders(site) }),
      201,
      "POST",
    );
    await expect.poll(() => reader.text()).toContain(marker);
    expect(reader.text()).not.toContain(secret);
    expect(reader.text()).not.toContain(draft);
    expect(reader.text()).not.toContain("event: resync");
  } finally {
    for (const stream of streams) stream.close();
    await admin.close();
    await readers.close();
    await nginx?.stop();
  }
});

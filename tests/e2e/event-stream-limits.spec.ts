/** Live-update streams are capped per address: the 21st gets a clear 429, and closing one frees a place. */
import http from "node:http";
import { expect, t, test } from "./support/fixtures.ts";

/** Opens GET /events and resolves with the status once the headers arrive (the stream stays open). */
function openStream(url: string): Promise<{ status: number; request: http.ClientRequest; body: () => Promise<string> }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}/events`, (response) => {
      let text = "";
      const ended = new Promise<string>((done) => {
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => done(text));
        response.on("close", () => done(text));
      });
      resolve({ status: response.statusCode ?? 0, request, body: () => ended });
    });
    request.on("error", reject);
  });
}

test("no máximo 20 fluxos de eventos por endereço; o 21º recebe 429 em português", async ({ launchSite }) => {
  const site = await launchSite();
  const open = [];
  try {
    for (let index = 0; index < 20; index++) {
      const stream = await openStream(site.url);
      expect(stream.status, `fluxo ${index + 1}`).toBe(200);
      open.push(stream);
    }
    const refused = await openStream(site.url);
    expect(refused.status).toBe(429);
    expect(await refused.body()).toBe(t.events.tooManyStreams);
    // The page itself still answers.
    expect((await fetch(`${site.url}/`)).status).toBe(200);
    // One closes: there is room again.
    open.pop()!.request.destroy();
    await expect
      .poll(async () => {
        const retry = await openStream(site.url);
        retry.request.destroy();
        return retry.status;
      })
      .toBe(200);
  } finally {
    for (const stream of open) stream.request.destroy();
  }
});

import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createNchanPublisher } from "#server/nchan-publisher.ts";

/** An HTTP server standing where nchan's publisher would: what it was sent, and the status it answers with. */
async function publisherEndpoint(status = 201) {
  const received: Array<{ event: string | undefined; body: string; type: string | undefined }> = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      received.push({ event: req.headers["x-eventsource-event"] as string | undefined, body, type: req.headers["content-type"] });
      res.writeHead(endpoint.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = {
    status,
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/_nchan/pub`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  servers.push(endpoint);
  return endpoint;
}
const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe("LIVE_FANOUT=nchan: what the app publishes", () => {
  it("each event made here, in order, as the app's own streams send it; never the newsroom's, never another instance's", async () => {
    const endpoint = await publisherEndpoint();
    const warnings: unknown[] = [];
    const publisher = createNchanPublisher({ publishUrl: endpoint.url, log: { warn: (...args: unknown[]) => warnings.push(args) } as never });
    publisher.onEvent("liveUpdated", { paths: ["/article/n1"], live: { newsId: "n1", updateId: "u1", change: "created" } });
    publisher.onEvent("liveUpdated", { paths: ["/article/n2"], live: { newsId: "n2", change: "created" }, newsroomOnly: true });
    publisher.onEvent("newsUpdated", { paths: ["/article/n3"], remote: true });
    publisher.onEvent("newsUpdated", { paths: ["/article/n1", "/"], liveStory: "n1" });
    publisher.onEvent("resync", { since: 5 });
    await publisher.idle();
    expect(endpoint.received).toEqual([
      { event: "liveUpdated", body: '{"newsId":"n1","updateId":"u1","change":"created"}', type: "application/json" },
      { event: "newsUpdated", body: '{"paths":["/article/n1","/"],"liveStory":"n1"}', type: "application/json" },
      { event: "resync", body: "{}", type: "application/json" },
    ]);
    expect(warnings).toEqual([]);
  });

  it("a refusal or nchan down is logged once a minute, and the next event still goes", async () => {
    const endpoint = await publisherEndpoint(500);
    const warnings: unknown[] = [];
    const publisher = createNchanPublisher({ publishUrl: endpoint.url, log: { warn: (...args: unknown[]) => warnings.push(args) } as never });
    publisher.onEvent("sponsorsUpdated", {});
    publisher.onEvent("sponsorsUpdated", {});
    await publisher.idle();
    expect(endpoint.received).toHaveLength(2);
    expect(warnings).toHaveLength(1);
    endpoint.status = 201;
    publisher.onEvent("newsUpdated", { paths: ["/"] });
    await publisher.idle();
    expect(endpoint.received).toHaveLength(3);

    const down = createNchanPublisher({
      publishUrl: "http://127.0.0.1:1/_nchan/pub",
      log: { warn: (...args: unknown[]) => warnings.push(args) } as never,
    });
    down.onEvent("sponsorsUpdated", {});
    await down.idle();
    expect(warnings).toHaveLength(2);
  });
});

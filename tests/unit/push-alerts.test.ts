/** Which addresses the server will post an alert to (PUSH_SERVICES), and which topics a browser may follow. */
import { describe, expect, it } from "vitest";
import { isAllowedPushService } from "#app/.server/push/push-alerts.server.ts";
import { isPushTopic, PUSH_TOPICS } from "#app/lib/push-topics.ts";

const DEFAULTS = [
  "https://fcm.googleapis.com",
  "https://updates.push.services.mozilla.com",
  "https://*.push.apple.com",
  "https://*.notify.windows.com",
];

describe("isAllowedPushService", () => {
  it("the browsers' push services, and nothing that only looks like them", () => {
    expect(isAllowedPushService("https://fcm.googleapis.com/fcm/send/abc:APA91b", DEFAULTS)).toBe(true);
    expect(isAllowedPushService("https://updates.push.services.mozilla.com/wpush/v2/gAAAA", DEFAULTS)).toBe(true);
    expect(isAllowedPushService("https://web.push.apple.com/QGx", DEFAULTS)).toBe(true);
    expect(isAllowedPushService("https://wns2-by3p.notify.windows.com/w/?token=x", DEFAULTS)).toBe(true);
    for (const endpoint of [
      "http://fcm.googleapis.com/fcm/send/abc", // not https
      "https://fcm.googleapis.com.evil.example/x",
      "https://evilfcm.googleapis.com/x",
      "https://push.apple.com/x", // the wildcard is for subdomains
      "https://web.push.apple.com:8443/x", // another port
      "https://user:pw@fcm.googleapis.com/x",
      "https://127.0.0.1/x",
      "file:///etc/passwd",
      "não é endereço",
    ]) {
      expect(isAllowedPushService(endpoint, DEFAULTS), endpoint).toBe(false);
    }
    expect(isAllowedPushService("http://127.0.0.1:4555/push/1", ["http://127.0.0.1:4555"])).toBe(true);
    expect(isAllowedPushService("http://127.0.0.1:4556/push/1", ["http://127.0.0.1:4555"])).toBe(false);
  });
});

describe("push topics", () => {
  it("the four kinds, with this site's slugs and ids", () => {
    for (const topic of [PUSH_TOPICS.general, PUSH_TOPICS.section("futebol"), PUSH_TOPICS.team("sao-paulo"), PUSH_TOPICS.match("a1B2_c3-d4")]) {
      expect(isPushTopic(topic), topic).toBe(true);
    }
    for (const topic of ["", "tudo", "secao:", "time:São Paulo", "secao:-x", `time:${"a".repeat(81)}`, "jogo:a/b", 42, null]) {
      expect(isPushTopic(topic), String(topic)).toBe(false);
    }
  });
});

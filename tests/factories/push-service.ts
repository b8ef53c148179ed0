/**
 * A push service on this machine that speaks the real protocol, standing in for the browsers' own (FCM, Mozilla's,
 * Apple's), which are on the public internet: it takes a message at a subscriber's endpoint as RFC 8030 says,
 * checks the sender's VAPID signature (RFC 8292: an ES256 JWT for this origin, not expired, signed by the key in
 * `k=`), decrypts the body with the subscriber's own keys (RFC 8291, aes128gcm) and keeps what arrived and when.
 * A subscriber marked gone answers 410, as a push service does for a browser that unsubscribed.
 */
import { createECDH, createPublicKey, randomBytes, verify } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import ece from "http_ece";

export interface PushedMessage {
  /** When it arrived (Date.now()). */
  at: number;
  payload: Record<string, unknown>;
  ttl: string | null;
  urgency: string | null;
}

export interface PushSubscriber {
  id: string;
  endpoint: string;
  /** As `PushSubscription.toJSON()` gives it in a browser. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  messages: PushedMessage[];
  /** From now on the service answers 410 Gone for it. */
  gone: boolean;
  /** The receiving browser's private key and auth secret (to decrypt a message elsewhere). */
  privateKey: string;
}

export interface PushServiceStandIn {
  origin: string;
  subscribe(): PushSubscriber;
  /** A subscriber added from outside (a browser page's keys, as it generated them). */
  adopt(keys: { privateKey: string; publicKey: string; auth: string }): PushSubscriber;
  /** Requests refused (bad signature, wrong audience, undecryptable). */
  refused: string[];
  /** Resolves once `count` messages in all arrived; rejects after `deadlineMs`. */
  waitForMessages(count: number, deadlineMs: number): Promise<void>;
  close(): Promise<void>;
}

function verifyVapid(authorization: string | undefined, origin: string): string | null {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? "");
  if (!match) return "no vapid authorization";
  const [headerPart, claimsPart, signature] = (match[1] as string).split(".");
  if (!headerPart || !claimsPart || !signature) return "malformed jwt";
  const header = JSON.parse(Buffer.from(headerPart, "base64url").toString()) as { alg?: string };
  const claims = JSON.parse(Buffer.from(claimsPart, "base64url").toString()) as { aud?: string; exp?: number; sub?: string };
  if (header.alg !== "ES256") return "alg";
  if (claims.aud !== origin) return `aud ${claims.aud}`;
  const now = Math.floor(Date.now() / 1000);
  if (!claims.exp || claims.exp <= now || claims.exp > now + 24 * 3600) return "exp";
  if (!claims.sub || !/^(mailto:|https?:)/.test(claims.sub)) return "sub";
  const raw = Buffer.from(match[2] as string, "base64url");
  if (raw.length !== 65 || raw[0] !== 4) return "k";
  const key = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33).toString("base64url") },
    format: "jwk",
  });
  const signed = verify(
    "sha256",
    Buffer.from(`${headerPart}.${claimsPart}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  return signed ? null : "signature";
}

export async function startPushService(): Promise<PushServiceStandIn> {
  const subscribers = new Map<string, PushSubscriber & { ecdh: ReturnType<typeof createECDH>; auth: string }>();
  const refused: string[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let total = 0;
  let origin = "";

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const id = /^\/push\/([\w-]+)$/.exec(request.url ?? "")?.[1];
      const subscriber = id ? subscribers.get(id) : undefined;
      if (request.method !== "POST" || !subscriber) {
        response.writeHead(404).end();
        return;
      }
      if (subscriber.gone) {
        response.writeHead(410).end();
        return;
      }
      const problem = verifyVapid(request.headers.authorization, origin);
      if (problem || request.headers["content-encoding"] !== "aes128gcm" || !request.headers.ttl) {
        refused.push(problem ?? "headers");
        response.writeHead(problem ? 403 : 400).end();
        return;
      }
      try {
        const text = ece
          .decrypt(Buffer.concat(chunks), { version: "aes128gcm", privateKey: subscriber.ecdh, authSecret: subscriber.auth })
          .toString("utf8");
        subscriber.messages.push({
          at: Date.now(),
          payload: JSON.parse(text) as Record<string, unknown>,
          ttl: (request.headers.ttl as string | undefined) ?? null,
          urgency: (request.headers.urgency as string | undefined) ?? null,
        });
      } catch (error) {
        refused.push(`decrypt: ${String(error)}`);
        response.writeHead(400).end();
        return;
      }
      total++;
      for (const waiter of waiters.filter((waiter) => total >= waiter.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      response.writeHead(201, { Location: `/message/${total}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function add(ecdh: ReturnType<typeof createECDH>, auth: string): PushSubscriber {
    const id = randomBytes(12).toString("base64url");
    const endpoint = `${origin}/push/${id}`;
    const subscriber = {
      id,
      endpoint,
      subscription: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth } },
      messages: [],
      gone: false,
      privateKey: ecdh.getPrivateKey().toString("base64url"),
      ecdh,
      auth,
    };
    subscribers.set(id, subscriber);
    return subscriber;
  }

  return {
    origin,
    refused,
    subscribe() {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      return add(ecdh, randomBytes(16).toString("base64url"));
    },
    adopt(keys) {
      const ecdh = createECDH("prime256v1");
      ecdh.setPrivateKey(Buffer.from(keys.privateKey, "base64url"));
      return add(ecdh, keys.auth);
    },
    waitForMessages(count, deadlineMs) {
      if (total >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`push service: ${total} of ${count} messages after ${deadlineMs} ms`)), deadlineMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

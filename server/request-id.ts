import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** The request's id: the proxy's `X-Request-Id` when it is a plain token, otherwise a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers["x-request-id"];
  return typeof incoming === "string" && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
}

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { t } from "#app/i18n/pt-BR.ts";
import { BODIES_IN_FLIGHT_PER_ADDRESS, BODY_MIN_BYTES_PER_SECOND } from "#app/lib/limits.ts";
import { FORM_BODY_MAX_BYTES } from "#app/lib/limits.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

/**
 * How long a request body may take, whoever reads it and whether or not it is ever read:
 * - a small body (declared length up to FORM_BODY_MAX_BYTES: every form without a file) arrives whole within `formMs`;
 * - a larger or chunked one (an upload) brings at least BODY_MIN_BYTES_PER_SECOND on average over each `rateWindowMs`;
 * - once the request is answered (an early 401, 403, 413 or 429 that never reads the body), what is left of the body
 *   has `afterAnswerMs` to arrive (Node discards it as it comes), then the connection is closed.
 */
export const BODY_TIMEOUTS = bodyTimeouts(15_000);

/** The timeouts for a deadline of `ms` (BODY_TIMEOUT_SECONDS): forms and a body's rest get it, an upload's rate window twice it. */
export function bodyTimeouts(ms: number) {
  return { formMs: ms, rateWindowMs: 2 * ms, afterAnswerMs: ms, checkEveryMs: Math.min(1_000, ms / 5) };
}

export interface SlowBodyOptions {
  timeouts?: typeof BODY_TIMEOUTS;
  /** Bodies one address may have in flight at once (BODIES_IN_FLIGHT_PER_ADDRESS). */
  perAddress?: number;
  minBytesPerSecond?: number;
  /** The client's address (the proxy's X-Forwarded-For only with TRUST_PROXY). */
  addressOf?: (req: IncomingMessage) => string;
}

const watched = Symbol("slow-body watch");

/**
 * The watch over every request body, for the outer HTTP server to call first on every request (before the page
 * cache and Express). Returns true when it answered the request itself (429: too many bodies from that address).
 */
export function createSlowBodyWatch(options: SlowBodyOptions = {}) {
  const timeouts = options.timeouts ?? BODY_TIMEOUTS;
  const perAddress = options.perAddress ?? BODIES_IN_FLIGHT_PER_ADDRESS;
  const minBytesPerSecond = options.minBytesPerSecond ?? BODY_MIN_BYTES_PER_SECOND;
  const addressOf = options.addressOf ?? ((req: IncomingMessage) => req.socket.remoteAddress ?? "unknown");
  const inFlight = new Map<string, number>();

  function release(address: string) {
    const left = (inFlight.get(address) ?? 1) - 1;
    if (left > 0) inFlight.set(address, left);
    else inFlight.delete(address);
  }

  return {
    /** Starts watching `req`'s body (once per request); true when the request was answered here (429). */
    watch(req: IncomingMessage, res: ServerResponse): boolean {
      const flagged = req as IncomingMessage & { [watched]?: true };
      if (flagged[watched] || !hasBody(req)) return false;
      flagged[watched] = true;
      const address = addressOf(req);
      const busy = (inFlight.get(address) ?? 0) >= perAddress;
      if (!busy) inFlight.set(address, (inFlight.get(address) ?? 0) + 1);
      const stopTiming = watchTiming(req, res, timeouts, minBytesPerSecond);
      // Once the body has arrived, or the request or its connection is gone: the address's count goes down, the
      // timing check stops, and these listeners go. A keep-alive socket carries request after request, so nothing
      // may stay attached to it once its request is over (two listeners a request used to pile up on it).
      const socket = req.socket;
      const stopLingering = lingerIfAnsweredEarly(req, timeouts.afterAnswerMs);
      const finish = () => {
        stopLingering();
        req.off("end", finish);
        req.off("close", finish);
        socket.off("close", finish);
        stopTiming();
        if (!busy) release(address);
      };
      req.once("end", finish);
      req.once("close", finish);
      socket.once("close", finish);
      if (!busy) return false;
      res.writeHead(429, {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": NO_STORE,
        "Retry-After": "10",
        "X-Content-Type-Options": "nosniff",
        Connection: "close",
      });
      res.end(t.errors.tooManyBodies);
      return true;
    },
    /** Bodies in flight per address (tests). */
    inFlight(): ReadonlyMap<string, number> {
      return inFlight;
    },
  };
}

/** A socket whose `destroySoon` may be an own property over net.Socket's (Node's http server calls it). */
type LingeringSocket = Omit<Socket, "destroySoon"> & { destroySoon?: () => void };

/**
 * Node closes the connection of a request answered before its body was read to the end (a 401, 413 or 429) as soon
 * as the answer is written (`socket.destroySoon()`): what the client still sends then meets a reset, which reaches it
 * before it has read the answer more often than not (3 of 8 clients sending a 200 MB body lost their 413 that way).
 * For such a request the connection is half-closed instead: the answer and the end of the stream go out, what still
 * arrives is thrown away (Node discards it), and the socket goes when the client ends its side, or `graceMs` later.
 */
function lingerIfAnsweredEarly(req: IncomingMessage, graceMs: number): () => void {
  const socket = req.socket as unknown as LingeringSocket;
  // An own property over net.Socket's method, for this request only: removed once its body has arrived (the next
  // request on a keep-alive socket sets its own), so nothing of it stays on the socket.
  socket.destroySoon = function lingeringClose(this: LingeringSocket) {
    delete socket.destroySoon;
    if (req.complete || this.destroyed) return void this.destroySoon?.();
    this.end();
    const timer = setTimeout(() => this.destroy(), graceMs);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
  };
  return () => {
    delete socket.destroySoon;
  };
}

/** Whether the request carries a body (the same test as Node's parser: a chunked encoding or a length above 0). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/**
 * Checks the body every `checkEveryMs` from the socket's byte count (the stream the app reads is not touched): too
 * slow before an answer is a 408 in pt-BR and a closed connection; after an answer, the connection goes once
 * `afterAnswerMs` have passed with the body still arriving. Returns what stops the check (the caller calls it once
 * the body has arrived or the connection is gone).
 */
function watchTiming(req: IncomingMessage, res: ServerResponse, timeouts: typeof BODY_TIMEOUTS, minBytesPerSecond: number): () => void {
  const started = Date.now();
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  const small = req.headers["transfer-encoding"] === undefined && declared <= FORM_BODY_MAX_BYTES;
  const samples: Array<{ at: number; bytes: number }> = [{ at: started, bytes: req.socket.bytesRead }];
  let answeredAt: number | null = null;
  const timer = setInterval(() => {
    if (req.complete || req.socket.destroyed) return clearInterval(timer);
    const now = Date.now();
    if (res.writableEnded) {
      answeredAt ??= now;
      if (now - answeredAt < timeouts.afterAnswerMs) return;
      clearInterval(timer);
      return void req.socket.destroy();
    }
    samples.push({ at: now, bytes: req.socket.bytesRead });
    while (samples.length > 1 && now - samples[1]!.at >= timeouts.rateWindowMs) samples.shift();
    const oldest = samples[0]!;
    const tooSlow = small
      ? now - started > timeouts.formMs
      : now - started >= timeouts.rateWindowMs && req.socket.bytesRead - oldest.bytes < (minBytesPerSecond * (now - oldest.at)) / 1000;
    if (!tooSlow) return;
    clearInterval(timer);
    if (!res.headersSent) {
      res.writeHead(408, { Connection: "close", "Cache-Control": NO_STORE, "Content-Type": "text/plain; charset=utf-8" });
      res.end(t.errors.bodyTimeout);
    }
    // Whatever was reading the body gets an error, and the socket goes.
    setTimeout(() => req.socket.destroy(), 100).unref();
  }, timeouts.checkEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}

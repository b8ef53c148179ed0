import type { NextFunction, Request, Response } from "express";
import { t } from "../app/i18n/pt-BR.ts";

/** Largest body of a form or JSON request that carries no file (sign-in, reset, logout, security): 32 KiB. */
export const FORM_BODY_MAX_BYTES = 32 * 1024;

/**
 * How long bodies may take: a form (at most 32 KiB) must arrive whole within 15 s; an upload may be slow (a phone on
 * a weak signal) but not stall: 30 s without a byte ends it. Without these, a client trickling one byte a second
 * held a connection (and its parser) open for hours.
 */
export const BODY_TIMEOUTS = { formMs: 15_000, uploadIdleMs: 30_000, checkEveryMs: 1_000 };

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Caps every request body that is not an upload before anything reads it: a body larger than
 * FORM_BODY_MAX_BYTES is answered 413 from its Content-Length alone, and one without a length (chunked) 411, so an
 * anonymous request can never make the server hold more than a few kilobytes (the sign-in form used to be read
 * whole, whatever its size, before the rate limiter answered). `takesUploads` says which paths may carry a file (the
 * routes that declare `uploads: true`, server/route-table.ts): their bodies are streamed by the upload parser, which
 * enforces the media limits itself (an over-limit Content-Length is refused before any byte is read).
 */
export function bodyLimit(takesUploads: (path: string) => boolean, maxBytes = FORM_BODY_MAX_BYTES, timeouts = BODY_TIMEOUTS) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!METHODS_WITH_BODY.has(req.method)) return next();
    const upload = takesUploads(req.path);
    watchBody(req, res, upload, timeouts);
    if (upload) return next();
    const declared = req.headers["content-length"];
    if (declared === undefined) {
      if (!req.headers["transfer-encoding"]) return next();
      return refuse(res, 411, t.errors.lengthRequired);
    }
    if (Number(declared) > maxBytes) return refuse(res, 413, t.errors.bodyTooLarge);
    next();
  };
}

/**
 * Answers with a pt-BR message. The body is never parsed: Node discards whatever of it still arrives (no memory
 * kept), so the client reads the answer instead of a connection reset.
 */
function refuse(res: Response, status: number, message: string) {
  res.status(status).set("Cache-Control", "no-store").type("text/plain; charset=utf-8").send(message);
}

/**
 * Ends a request whose body is too slow: a form not complete within `formMs`, an upload with no byte for
 * `uploadIdleMs` (read from the socket's byte count, without touching the stream the app reads). Answers 408 in
 * pt-BR when nothing was sent yet, and closes the connection.
 */
function watchBody(req: Request, res: Response, upload: boolean, timeouts: typeof BODY_TIMEOUTS) {
  if (req.complete) return;
  const started = Date.now();
  let lastBytes = req.socket.bytesRead;
  let lastProgress = started;
  const timer = setInterval(() => {
    if (req.complete || res.writableEnded || req.socket.destroyed) return clearInterval(timer);
    const now = Date.now();
    if (req.socket.bytesRead !== lastBytes) {
      lastBytes = req.socket.bytesRead;
      lastProgress = now;
    }
    const tooSlow = upload ? now - lastProgress > timeouts.uploadIdleMs : now - started > timeouts.formMs;
    if (!tooSlow) return;
    clearInterval(timer);
    if (!res.headersSent) {
      res.status(408).set({ Connection: "close", "Cache-Control": "no-store" }).type("text/plain; charset=utf-8").end(t.errors.bodyTimeout);
    }
    // Whatever was reading the body gets an error, and the socket goes.
    setTimeout(() => req.socket.destroy(), 100).unref();
  }, timeouts.checkEveryMs);
  timer.unref();
  req.once("end", () => clearInterval(timer));
  res.once("close", () => clearInterval(timer));
}

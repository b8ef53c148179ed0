import type { NextFunction, Request, Response } from "express";
import { t } from "#app/i18n/pt-BR.ts";
import { FORM_BODY_MAX_BYTES, NEWS_SUBMISSION_MAX_BYTES } from "#app/lib/limits.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Caps every request body that is not an upload before anything reads it: a body larger than
 * FORM_BODY_MAX_BYTES is answered 413 from its Content-Length alone, and one without a length (chunked) 411, so an
 * anonymous request can never make the server hold more than a few kilobytes (the sign-in form used to be read
 * whole, whatever its size, before the rate limiter answered). `takesUploads` says which paths may carry a file (the
 * routes that declare `uploads: true`, server/route-table.ts): their bodies are streamed by the upload parser, which
 * enforces the media limits itself (an over-limit Content-Length is refused before any byte is read). What they get
 * without a file (JSON, urlencoded) is refused here past NEWS_SUBMISSION_MAX_BYTES declared (the largest any of them
 * takes), and read by app/.server/http/read-body.server.ts with each route's own cap, counted as it arrives.
 */
export function bodyLimit(takesUploads: (path: string) => boolean, maxBytes = FORM_BODY_MAX_BYTES, maxSubmissionBytes = NEWS_SUBMISSION_MAX_BYTES) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!METHODS_WITH_BODY.has(req.method)) return next();
    // How long a body may take is watched for every request, upload or not, by server/slow-body.ts.
    const declared = req.headers["content-length"];
    if (takesUploads(req.path)) {
      const multipart = (req.headers["content-type"] ?? "").startsWith("multipart/form-data");
      if (!multipart && declared !== undefined && Number(declared) > maxSubmissionBytes) return refuse(res, 413, t.errors.bodyTooLarge);
      return next();
    }
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
  res.status(status).set("Cache-Control", NO_STORE).type("text/plain; charset=utf-8").send(message);
}

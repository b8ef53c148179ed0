import type { NextFunction, Request, Response } from "express";
import { t } from "#app/i18n/pt-BR.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF protection for every state-changing request: the browser's Origin (or, failing that, Referer) must be this
 * site. A request with neither header is let through only when it carries no cookie, because then it has no
 * ambient credentials a forged request could abuse.
 */
export function originGuard(siteUrls: string[]) {
  const configured = new Set(siteUrls.map((url) => new URL(url).origin));
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get("origin") ?? originOf(req.get("referer"));
    const own = `${req.protocol}://${req.get("host")}`;
    if (origin ? origin === own || configured.has(origin) : !req.headers.cookie) return next();
    res.status(403).type("text/plain; charset=utf-8").send(t.errors.originRefused);
  };
}

function originOf(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

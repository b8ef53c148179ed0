import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { type EntryContext, type HandleErrorFunction, isRouteErrorResponse, type RouterContextProvider, ServerRouter } from "react-router";
import { servicesOf, stylesheetsContext } from "./.server/context.server.ts";
import { rewriteHeadStream } from "./.server/http/inline-stylesheets.server.ts";
import { requestIdFrom } from "./.server/errors.ts";
import { cspNonceContext } from "./lib/request-context.ts";

export const streamTimeout = 5_000;

/**
 * Errors React Router catches go to the structured log (and its LOG_LEVEL), with the request id, instead of a stack
 * trace on standard error. A 404 or 405 is an answer, not a failure: logged at debug only. An aborted request (the
 * browser went away) is not an error.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  let log;
  try {
    log = servicesOf(context).log;
  } catch {
    // A request handled without the server's context (no services on it).
    console.error(error);
    return;
  }
  const reqId = requestIdFrom(request);
  if (isRouteErrorResponse(error) && error.status < 500) {
    log.debug({ status: error.status, reqId, url: new URL(request.url).pathname }, "route answered with an error response");
    return;
  }
  log.error({ err: error, reqId }, "request failed");
};

/**
 * React Router's default document render (streams once the shell is ready; bots get the whole page at once). Every
 * inline script (React Router's context and module loader, its streamed data, React's own streaming scripts)
 * carries this response's Content-Security-Policy nonce; `ServerRouter` hands it on to `<Scripts>`,
 * `<ScrollRestoration>` and `<Links>`. Pages rendered for the page cache have none (their policy uses hashes).
 * The head's stylesheets are written into it (decision record 014) when the server gave the build's.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = loadContext.get(cspNonceContext) ?? undefined;
  const stylesheets = loadContext.get(stylesheetsContext);
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
      nonce,
      [readyOption]() {
        shellRendered = true;
        const finished = () => {
          clearTimeout(timeoutId);
          timeoutId = undefined;
        };
        const body = rewriteHeadStream(stylesheets?.count ? stylesheets.rewriteHead : null, finished);
        const stream = createReadableStreamFromReadable(body);
        responseHeaders.set("Content-Type", "text/html");
        pipe(body);
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors inside an already sent shell; those of the shell itself reject and reach handleError.
        if (shellRendered) handleError(error, { request, params: {}, context: loadContext } as never);
      },
    });
  });
}

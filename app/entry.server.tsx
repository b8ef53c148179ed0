import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { type EntryContext, type HandleErrorFunction, isRouteErrorResponse, type RouterContextProvider, ServerRouter } from "react-router";
import { servicesOf, stylesheetsContext } from "./.server/context.server.ts";
import { rewriteHeadStream } from "./.server/http/inline-stylesheets.server.ts";
import { requestIdFrom } from "./.server/errors.ts";
import { sharedCacheMayStore } from "./lib/cache-headers.ts";
import { cspNonceContext, documentPolicyContext } from "./lib/request-context.ts";
import { ScriptNonceContext } from "./lib/script-nonce.ts";

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
 * `<ScrollRestoration>` and `<Links>`, and `ScriptNonceContext` to the app's own (the theme's, root.tsx).
 * Pages rendered for the page cache have none (their policy uses hashes).
 * Neither has a page a shared cache in front may store (its Cache-Control neither `private` nor `no-store`: a public
 * page without the page cache, the search, a 404): it is rendered whole, without a nonce, and its policy lists the
 * hashes of its inline scripts (the server's `documentPolicyContext`), so no reader of a stored copy holds a nonce
 * that another one's page accepts (decision record 004).
 * The head's stylesheets are written into it (decision record 014) when the server gave the build's.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const documentPolicy = loadContext.get(documentPolicyContext);
  const shared = documentPolicy !== null && sharedCacheMayStore(responseHeaders.get("Cache-Control"));
  const nonce = shared ? undefined : (loadContext.get(cspNonceContext) ?? undefined);
  const stylesheets = loadContext.get(stylesheetsContext);
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      shared || (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const app = (
      <ScriptNonceContext value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </ScriptNonceContext>
    );
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce,
      [readyOption]() {
        shellRendered = true;
        const finished = () => {
          clearTimeout(timeoutId);
          timeoutId = undefined;
        };
        const body = rewriteHeadStream(stylesheets?.count ? stylesheets.rewriteHead : null, finished);
        responseHeaders.set("Content-Type", "text/html");
        pipe(body);
        if (documentPolicy && shared) {
          // The whole page first: its policy is the hashes of every inline script in it.
          const chunks: Buffer[] = [];
          body.on("data", (chunk: Buffer) => chunks.push(chunk));
          body.once("error", reject);
          body.once("end", () => {
            const html = Buffer.concat(chunks);
            responseHeaders.set("Content-Security-Policy", documentPolicy(html.toString("utf8")));
            resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
          });
          return;
        }
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
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

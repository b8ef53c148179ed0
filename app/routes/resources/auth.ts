import type { Route } from "./+types/auth";
import { type RequestContext, servicesOf } from "../../.server/context.server.ts";
import { PUBLIC_AUTH_PATHS } from "../../.server/auth/auth.server.ts";

/**
 * Better Auth's HTTP handler, opened only for what the browser must reach directly (the OpenID Connect callback).
 * Sign-in, registration and resets go through our own forms and actions.
 */
async function handle(request: Request, context: RequestContext): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (!PUBLIC_AUTH_PATHS.some((path) => pathname === path)) return new Response("Não encontrado", { status: 404 });
  return (await servicesOf(context).betterAuth.get()).handler(request);
}

export function loader({ request, context }: Route.LoaderArgs) {
  return handle(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return handle(request, context);
}

import { href, redirect } from "react-router";
import type { Route } from "./+types/logout";
import { servicesOf } from "#app/.server/context.server.ts";
import { PRIVATE_ROUTE } from "#app/lib/route-facts.ts";

/** Ends the session (POST only: a link or image can never sign anyone out) and goes to the login page. */
export async function action({ request, context }: Route.ActionArgs) {
  const { auth, log } = servicesOf(context);
  try {
    const headers = await auth.signOut(request.headers);
    return redirect(href("/admin/login"), { headers });
  } catch (error) {
    log.error({ err: error }, "sign-out failed");
    return redirect(`${href("/admin/login")}?logout=failed`);
  }
}

export function loader() {
  return redirect(href("/admin/login"));
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;

import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { getServices } from "../../.server/app.server.ts";

/** Ends the session (POST only: a link or image can never sign anyone out) and goes to the login page. */
export async function action({ request }: Route.ActionArgs) {
  const { auth, log } = getServices();
  try {
    const headers = await auth.signOut(request.headers);
    return redirect("/admin/login", { headers });
  } catch (error) {
    log.error({ err: error }, "sign-out failed");
    return redirect("/admin/login?logout=failed");
  }
}

export function loader() {
  return redirect("/admin/login");
}

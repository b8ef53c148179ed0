import { sql } from "kysely";
import { PRIVATE_ROUTE } from "../../lib/route-facts.ts";
import type { Route } from "./+types/readyz";
import { servicesOf } from "../../.server/context.server.ts";

/**
 * Readiness: the database answers and the media store is reachable. 503 with the failing part otherwise.
 * A Google Drive store waiting for an admin's consent is reported but does not fail readiness: the instance must
 * stay in the pool so an admin can reach the Google Drive connection page.
 *
 * The answer is for load balancers and monitoring, in English like the logs: `{ status: "ok" | "unavailable",
 * checks: { database, media } }`, each check "ok", "failed" or (media on Google Drive only) "not connected".
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { database, store, log } = servicesOf(context);
  const checks: Record<string, "ok" | "failed" | "not connected"> = {};
  try {
    await sql`select 1`.execute(database.db);
    checks.database = "ok";
  } catch (error) {
    log.error({ err: error }, "readiness: database check failed");
    checks.database = "failed";
  }
  try {
    const connected = await store.isConnected();
    checks.media = connected ? "ok" : store.name === "gdrive" ? "not connected" : "failed";
  } catch (error) {
    log.error({ err: error }, "readiness: media store check failed");
    checks.media = "failed";
  }
  const ready = Object.values(checks).every((value) => value !== "failed");
  return Response.json({ status: ready ? "ok" : "unavailable", checks }, { status: ready ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;

import { sql } from "kysely";
import { PRIVATE_ROUTE } from "../../lib/route-facts.ts";
import type { Route } from "./+types/readyz";
import { servicesOf } from "../../.server/context.server.ts";

type Check = "ok" | "failed" | "not connected" | "unavailable, limits in memory";

/**
 * Readiness: the database answers and the media store is reachable. 503 with the failing part otherwise.
 * A store an admin must connect (Google Drive waiting for consent) is reported but does not fail readiness: the
 * instance must stay in the pool so an admin can reach the connection page. Redis (REDIS_URL, the shared rate
 * limits) is reported when configured and does not fail readiness either: while it is unreachable every instance
 * counts the limits in its own memory, and taking the instances out of the pool would take the site down.
 *
 * The answer is for load balancers and monitoring, in English like the logs: `{ status: "ok" | "unavailable",
 * checks: { database, media, redis? } }`, each check "ok", "failed", (media) "not connected" or (redis)
 * "unavailable, limits in memory".
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { database, store, rateLimiter, log } = servicesOf(context);
  const checks: Record<string, Check> = {};
  try {
    await sql`select 1`.execute(database.db);
    checks.database = "ok";
  } catch (error) {
    log.error({ err: error }, "readiness: database check failed");
    checks.database = "failed";
  }
  try {
    const connected = await store.isConnected();
    checks.media = connected ? "ok" : store.needsConnection ? "not connected" : "failed";
  } catch (error) {
    log.error({ err: error }, "readiness: media store check failed");
    checks.media = "failed";
  }
  if (rateLimiter.backend) checks.redis = (await rateLimiter.backend()) === "redis" ? "ok" : "unavailable, limits in memory";
  const ready = Object.values(checks).every((value) => value !== "failed");
  return Response.json({ status: ready ? "ok" : "unavailable", checks }, { status: ready ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;
